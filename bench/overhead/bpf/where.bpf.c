// where.d by hand: on-cpu stamps the incoming task (task storage), off-cpu adds the outgoing
// task's time on CPU to a per-CPU quantize histogram keyed by CPU.
#include "bench_types.bpf.h"

struct {
  __uint(type, BPF_MAP_TYPE_TASK_STORAGE);
  __uint(map_flags, BPF_F_NO_PREALLOC);
  __type(key, int);
  __type(value, u64);
} on_cpu_since SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_PERCPU_HASH);
  __uint(max_entries, 1024);
  __type(key, u32);
  __type(value, struct quantize_histogram);
} time_on_cpu SEC(".maps");

static const struct quantize_histogram empty_histogram;

SEC("tp_btf/sched_switch")
int BPF_PROG(where, bool preempt, struct task_struct *prev, struct task_struct *next) {
  u64 now = bpf_ktime_get_ns();
  u64 *since = bpf_task_storage_get(&on_cpu_since, prev, 0, 0);
  if (since && *since) {
    u32 cpu = bpf_get_smp_processor_id();
    struct quantize_histogram *h = bpf_map_lookup_elem(&time_on_cpu, &cpu);
    if (!h) {
      bpf_map_update_elem(&time_on_cpu, &cpu, &empty_histogram, BPF_NOEXIST);
      h = bpf_map_lookup_elem(&time_on_cpu, &cpu);
    }
    if (h) {
      h->buckets[quantize_bucket(now - *since)] += 1;
    }
    *since = 0;
  }
  since = bpf_task_storage_get(&on_cpu_since, next, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
  if (since) *since = now;
  return 0;
}

char LICENSE[] SEC("license") = "GPL";
