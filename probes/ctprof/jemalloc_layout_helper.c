/* Started by ctprof with a libjemalloc preloaded and its path as the only argument: prints
 * where jemalloc keeps a thread's allocated and deallocated counters, as byte offsets into the
 * library's thread-local storage block. Both are the same in every process loading that file. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef int (*mallctl_fn)(const char*, void*, size_t*, void*, size_t);

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  void* lib = dlopen(argv[1], RTLD_NOW | RTLD_NOLOAD);
  if (!lib) return 3;
  mallctl_fn ctl = (mallctl_fn)dlsym(lib, "mallctl");
  if (!ctl) ctl = (mallctl_fn)dlsym(lib, "je_mallctl");
  if (!ctl) return 4;
  uint64_t* allocated = NULL;
  uint64_t* deallocated = NULL;
  size_t size = sizeof allocated;
  if (ctl("thread.allocatedp", &allocated, &size, NULL, 0) != 0 ||
      ctl("thread.deallocatedp", &deallocated, &size, NULL, 0) != 0)
    return 5;
  void* block = NULL;
  if (dlinfo(lib, RTLD_DI_TLS_DATA, &block) != 0 || block == NULL) return 6;
  printf("%td %td\n", (char*)allocated - (char*)block, (char*)deallocated - (char*)block);
  return 0;
}
