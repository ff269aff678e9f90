/* A shared object whose local function only its separate debug info names, once stripped. */
__attribute__((noinline)) static int debug_info_local_function(int x) {
  __asm__ volatile("" ::: "memory");
  return x * 7 + 3;
}

void* debug_info_local_function_address(void) { return (void*)&debug_info_local_function; }

int debug_info_call(int x) { return debug_info_local_function(x); }
