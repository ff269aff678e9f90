// syscount.d by hand: read() calls counted in a per-CPU hash with one key.
#include "bench_types.bpf.h"

struct {
  __uint(type, BPF_MAP_TYPE_PERCPU_HASH);
  __uint(max_entries, 1024);
  __type(key, u32);
  __type(value, u64);
} read_calls SEC(".maps");

SEC("tp_btf/sys_enter")
int BPF_PROG(syscount, struct pt_regs *regs, long id) {
  if (id != NR_READ || !native_call()) return 0;
  count_one(&read_calls, 0);
  return 0;
}

char LICENSE[] SEC("license") = "GPL";
