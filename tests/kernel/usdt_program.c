/* A program with <sys/sdt.h> probes of provider myprov whose arguments are known. Iteration i
 * (of argv[1], default 3; argv[2] milliseconds apart, default 0) fires:
 *   int__args(-i as int8, 60000 + i as uint16, -100000 * i as int32, 10^12 * i as int64, 5)
 *   greet(i, "hello")
 *   global(counter): a variable read %rip-relative, 7 + i
 *   frame(i, -i): operands in memory relative to %rbp (an unoptimized function)
 *   indexed(table[i % 4]): an operand with base and index registers, 11, 22, 33 or 44
 *   high__byte(i in %ah)
 *   gated(i) only while its semaphore says it is traced (usdt_gated.c)
 * It prints "pid P" first, "gated on at I" / "gated off at I" when the iteration I finds gated
 * traced after it was not or the reverse, and "enabled E of N" at the end: how many iterations
 * saw gated traced. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>
#include <time.h>
#include <unistd.h>

long counter = 7;
static int table[4] = {11, 22, 33, 44};
int gated_probe(int i);

__attribute__((noinline, optimize("O0"))) static void frame_probe(int i, long negated) {
  STAP_PROBE2(myprov, frame, i, negated);
}

__attribute__((noinline)) static void indexed_probe(int i) {
  __asm__ volatile(STAP_PROBE_ASM(myprov, indexed, -4@(%%rax,%%rdx,4)) : : "a"(table), "d"((long)(i % 4)));
}

/* An operand in a high byte register, which pt_regs does not name: using it is refused. */
__attribute__((noinline)) static void high_byte_probe(int i) {
  __asm__ volatile(STAP_PROBE_ASM(myprov, high__byte, 1@%%ah) : : "a"(i << 8));
}

__attribute__((noinline)) static void fire(int i, const char *who) {
  signed char small = (signed char)-i;
  unsigned short mid = (unsigned short)(60000 + i);
  int negative = -100000 * i;
  long long big = 1000000000000LL * i;
  STAP_PROBE5(myprov, int__args, small, mid, negative, big, 5);
  STAP_PROBE2(myprov, greet, i, who);
  STAP_PROBE1(myprov, global, counter);
  counter++;
  frame_probe(i, -i);
  indexed_probe(i);
  high_byte_probe(i);
}

int main(int argc, char **argv) {
  int iterations = argc > 1 ? atoi(argv[1]) : 3;
  long interval_ms = argc > 2 ? atol(argv[2]) : 0;
  const struct timespec interval = {interval_ms / 1000, (interval_ms % 1000) * 1000000};
  int enabled = 0, was_enabled = 0;
  printf("pid %d\n", (int)getpid());
  fflush(stdout);
  for (int i = 0; i < iterations; i++) {
    fire(i, "hello");
    int now_enabled = gated_probe(i);
    if (now_enabled != was_enabled) {
      printf("gated %s at %d\n", now_enabled ? "on" : "off", i);
      fflush(stdout);
    }
    was_enabled = now_enabled;
    enabled += now_enabled;
    if (interval_ms) nanosleep(&interval, NULL);
  }
  printf("enabled %d of %d\n", enabled, iterations);
  return 0;
}
