// profile-997 { @[cpu] = count(); } by hand: a cpu-clock perf event program (the loader opens the
// events) counting into a per-CPU hash keyed by CPU.
#include "bench_types.bpf.h"

struct {
  __uint(type, BPF_MAP_TYPE_PERCPU_HASH);
  __uint(max_entries, 1024);
  __type(key, u32);
  __type(value, u64);
} tick_count SEC(".maps");

SEC("perf_event")
int count_tick(void *ctx) {
  count_one(&tick_count, bpf_get_smp_processor_id());
  return 0;
}

char LICENSE[] SEC("license") = "GPL";
