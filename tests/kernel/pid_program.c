/* The pid provider's workload: pid_program N PAUSE_MS [WORDS...] prints its words, then calls
 * dsched_add(i, 7, label) and dsched_many(1, 2, 3, 4, 5, 6, 70 + i, 80 + i) and getpid() N times,
 * pausing PAUSE_MS between rounds, and prints the sum of the results. Before main(), a constructor
 * forks a child that only reports it reached main() when DSCHED_FORK_EARLY is set, and waits for
 * a signal when DSCHED_BLOCK_EARLY is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) long dsched_add(long a, long b, const char *label) {
  __asm__ volatile("" ::: "memory");
  return a * 10 + b + (label[0] == 'x');
}

__attribute__((noinline)) long dsched_many(long a, long b, long c, long d, long e, long f, long g, long h) {
  __asm__ volatile("" ::: "memory");
  return a + b + c + d + e + f + g + h;
}

static int forked_early;  /* 1 in the child, its pid in the parent */

__attribute__((constructor)) static void before_main(void) {
  if (getenv("DSCHED_FORK_EARLY")) {
    pid_t child = fork();
    forked_early = child == 0 ? 1 : child;
  }
  if (getenv("DSCHED_BLOCK_EARLY")) pause();
}

int main(int argc, char **argv) {
  if (forked_early == 1) {
    printf("early child reached main\n");
    return 3;
  }
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
  if (forked_early > 1) {
    int status = 0;
    waitpid(forked_early, &status, 0);
    printf("early child exit %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status));
  }
  free(label);
  return 0;
}
