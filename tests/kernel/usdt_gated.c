/* myprov:::gated has an is-enabled semaphore: the kernel raises it while a uprobe with that
 * reference counter is attached. (<sys/sdt.h> gives every probe of a file a semaphore or none.) */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

unsigned short myprov_gated_semaphore __attribute__((section(".probes")));

int gated_probe(int i) {
  if (!myprov_gated_semaphore) return 0;
  STAP_PROBE1(myprov, gated, i);
  return 1;
}
