// sched:::on-cpu { @[cpu] = count(); } by hand: a per-CPU hash keyed by CPU.
#include "bench_types.bpf.h"

struct {
  __uint(type, BPF_MAP_TYPE_PERCPU_HASH);
  __uint(max_entries, 1024);
  __type(key, u32);
  __type(value, u64);
} oncpu_count SEC(".maps");

SEC("tp_btf/sched_switch")
int BPF_PROG(count_on_cpu, bool preempt, struct task_struct *prev, struct task_struct *next) {
  count_one(&oncpu_count, bpf_get_smp_processor_id());
  return 0;
}

char LICENSE[] SEC("license") = "GPL";
