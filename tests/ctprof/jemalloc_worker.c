/* A process linked with libjemalloc for the ctprof jemalloc tests. It prints the tid of its
 * worker thread, then reads commands on stdin:
 *   alloc N   the worker allocates N bytes (kept) and the reply is "done A D", A and D being
 *             the worker's own jemalloc thread.allocated / thread.deallocated afterwards
 *   quit      exit
 * Between commands every thread sleeps, so its counters hold still. */
#define _GNU_SOURCE
#include <jemalloc/jemalloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static long long request = -1; /* bytes to allocate; -1: nothing to do */
static int worker_tid;
static uint64_t allocated, deallocated;

static uint64_t counter(const char* name) {
  uint64_t v = 0;
  size_t size = sizeof v;
  if (mallctl(name, &v, &size, NULL, 0) != 0) abort();
  return v;
}

static void* worker(void* arg) {
  (void)arg;
  pthread_mutex_lock(&mu);
  worker_tid = (int)syscall(SYS_gettid);
  pthread_cond_broadcast(&cv);
  for (;;) {
    while (request < 0) pthread_cond_wait(&cv, &mu);
    for (long long left = request; left > 0; left -= 1 << 20) {
      const size_t n = left < (1 << 20) ? (size_t)left : (size_t)(1 << 20);
      char* p = malloc(n);
      memset(p, 1, n); /* kept: the bytes stay allocated */
    }
    allocated = counter("thread.allocated");
    deallocated = counter("thread.deallocated");
    request = -1;
    pthread_cond_broadcast(&cv);
  }
  return NULL;
}

static void* sleeper(void* arg) {
  (void)arg;
  for (;;) pause();
  return NULL;
}

int main(void) {
  pthread_t t;
  if (pthread_create(&t, NULL, worker, NULL) != 0 || pthread_create(&t, NULL, sleeper, NULL) != 0)
    return 1;
  pthread_mutex_lock(&mu);
  while (worker_tid == 0) pthread_cond_wait(&cv, &mu);
  pthread_mutex_unlock(&mu);
  printf("tid %d\n", worker_tid);
  fflush(stdout);
  char line[128];
  while (fgets(line, sizeof line, stdin)) {
    long long n;
    if (strcmp(line, "quit\n") == 0) return 0;
    if (sscanf(line, "alloc %lld", &n) != 1 || n < 0) return 2;
    pthread_mutex_lock(&mu);
    request = n;
    pthread_cond_broadcast(&cv);
    while (request >= 0) pthread_cond_wait(&cv, &mu);
    printf("done %llu %llu\n", (unsigned long long)allocated, (unsigned long long)deallocated);
    pthread_mutex_unlock(&mu);
    fflush(stdout);
  }
  return 0;
}
