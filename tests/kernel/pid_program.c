/* The pid provider's workload: pid_program N PAUSE_MS [WORDS...] prints its words, then calls
 * dsched_add(i, 7, label) and dsched_many(1, 2, 3, 4, 5, 6, 70 + i, 80 + i) and getpid() N times,
 * pausing PAUSE_MS between rounds, and prints the sum of the results. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) long dsched_add(long a, long b, const char *label) {
  __asm__ volatile("" ::: "memory");
  return a * 10 + b + (label[0] == 'x');
}

__attribute__((noinline)) long dsched_many(long a, long b, long c, long d, long e, long f, long g, long h) {
  __asm__ volatile("" ::: "memory");
  return a + b + c + d + e + f + g + h;
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 1;
  int pause_ms = argc > 2 ? atoi(argv[2]) : 0;
  printf("words:");
  for (int i = 3; i < argc; i++) printf(" %s", argv[i]);
  printf("\n");
  fflush(stdout);
  char *label = strdup("label");
  long sum = 0;
  for (int i = 0; i < rounds; i++) {
    sum += dsched_add(i, 7, label);
    sum += dsched_many(1, 2, 3, 4, 5, 6, 70 + i, 80 + i);
    sum += getpid() > 0;
    if (pause_ms) usleep(pause_ms * 1000);
  }
  printf("sum %ld\n", sum);
  free(label);
  return 0;
}
