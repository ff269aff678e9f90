// sched:::off-cpu { @[stack()] = count(); } by hand: the 20 kernel frames under the tracer's two
// (the BPF program and bpf_trace_run) as the key of a per-CPU hash.
#include "bench_types.bpf.h"

#define FRAMES 20

struct stack_key {
  u64 pcs[FRAMES];
};

struct {
  __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
  __uint(max_entries, 1);
  __type(key, u32);
  __type(value, struct stack_key);
} scratch SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_PERCPU_HASH);
  __uint(max_entries, 16384);
  __type(key, struct stack_key);
  __type(value, u64);
} stack_count SEC(".maps");

SEC("tp_btf/sched_switch")
int BPF_PROG(count_stacks, bool preempt, struct task_struct *prev, struct task_struct *next) {
  u32 zero = 0;
  struct stack_key *key = bpf_map_lookup_elem(&scratch, &zero);
  if (!key) return 0;
  bpf_get_stack(ctx, key->pcs, sizeof key->pcs, 2);
  u64 *count = bpf_map_lookup_elem(&stack_count, key);
  if (count) {
    *count += 1;
  } else {
    u64 one = 1;
    bpf_map_update_elem(&stack_count, key, &one, BPF_NOEXIST);
  }
  return 0;
}

char LICENSE[] SEC("license") = "GPL";
