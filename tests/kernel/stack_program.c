/* A program whose stack is known: main -> dsched_outer -> dsched_middle -> dsched_inner, which
 * sleeps N times (argv[1]) with a nanosleep system call made right there, so the user stack at
 * each sleep is exactly those frames. Built with frame pointers, so the kernel can walk it. */
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>

static inline __attribute__((always_inline)) long raw_nanosleep(const struct timespec *ts) {
  long ret;
  __asm__ volatile("syscall" : "=a"(ret) : "a"((long)SYS_nanosleep), "D"(ts), "S"(0L) : "rcx", "r11", "memory");
  return ret;
}

__attribute__((noinline)) void dsched_inner(int sleeps) {
  const struct timespec five_ms = {0, 5 * 1000 * 1000};
  for (int i = 0; i < sleeps; i++) raw_nanosleep(&five_ms);
}

__attribute__((noinline)) void dsched_middle(int sleeps) {
  dsched_inner(sleeps);
  __asm__ volatile("" ::: "memory"); /* not a tail call: this frame stays on the stack */
}

__attribute__((noinline)) void dsched_outer(int sleeps) {
  dsched_middle(sleeps);
  __asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv) {
  dsched_outer(argc > 1 ? atoi(argv[1]) : 1);
  return 0;
}
