// qlen.d by hand: a global per-CPU queue length (hash keyed by CPU, entry removed at 0 as D does),
// and an lquantize(len, 0, 100) histogram per CPU of the length seen at each enqueue.
#include "queue_tracking.bpf.h"

// lquantize(v, 0, 100): bucket 0 below 0, 1 + v for 0..99, 101 for 100 and above.
#define LQUANTIZE_BUCKETS 102

struct {
  __uint(type, BPF_MAP_TYPE_HASH);
  __uint(max_entries, 1024);
  __type(key, u32);
  __type(value, s64);
} queue_length SEC(".maps");

struct histogram {
  u64 buckets[LQUANTIZE_BUCKETS];
};

struct {
  __uint(type, BPF_MAP_TYPE_PERCPU_HASH);
  __uint(max_entries, 1024);
  __type(key, u32);
  __type(value, struct histogram);
} length_at_enqueue SEC(".maps");

static const struct histogram empty_histogram;

static __always_inline void on_enqueue(struct task_struct *task, u32 cpu) {
  s64 length = 0;
  s64 *queued = bpf_map_lookup_elem(&queue_length, &cpu);
  if (queued) {
    length = *queued;
    *queued = length + 1;
  } else {
    s64 one = 1;
    bpf_map_update_elem(&queue_length, &cpu, &one, BPF_NOEXIST);
  }
  struct histogram *h = bpf_map_lookup_elem(&length_at_enqueue, &cpu);
  if (!h) {
    bpf_map_update_elem(&length_at_enqueue, &cpu, &empty_histogram, BPF_NOEXIST);
    h = bpf_map_lookup_elem(&length_at_enqueue, &cpu);
  }
  if (h) {
    u32 bucket = length < 0 ? 0 : length >= 100 ? 101 : (u32)length + 1;
    h->buckets[bucket] += 1;
  }
}

static __always_inline void on_dequeue(struct task_struct *task, u32 cpu) {
  s64 *queued = bpf_map_lookup_elem(&queue_length, &cpu);
  if (!queued || !*queued) return;
  if (*queued == 1)
    bpf_map_delete_elem(&queue_length, &cpu);
  else
    *queued -= 1;
}

char LICENSE[] SEC("license") = "GPL";
