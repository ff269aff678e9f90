/* SDT notes with operands written by hand, as odd as notes in the wild may hold them: the unit
 * tests read how each is parsed or why it cannot be read. Never run. */
#include <sys/sdt.h>

long forms_counter[2];

int main(void) {
  __asm__ volatile(STAP_PROBE_ASM(forms, readable, -8@forms_counter+8(%rip) 4@%xmm0 1@%ah));
  __asm__ volatile(STAP_PROBE_ASM(forms, unreadable, 8@nosuch(%rip) 8@16(%rip) -4@0x1000 8@$forms_counter 3@%eax));
  return 0;
}
