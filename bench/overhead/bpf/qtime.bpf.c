// qtime.d by hand: the time each thread waits on a run queue, as a per-CPU quantize histogram
// keyed by the queue's CPU. Enqueue times live in a global hash keyed by (tid, pid, cpu).
#include "queue_tracking.bpf.h"

struct queued_thread {
  u32 tid;
  u32 pid;
  u32 cpu;
};

struct {
  __uint(type, BPF_MAP_TYPE_HASH);
  __uint(max_entries, 65536);
  __type(key, struct queued_thread);
  __type(value, u64);
} enqueued_at SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_PERCPU_HASH);
  __uint(max_entries, 1024);
  __type(key, u32);
  __type(value, struct quantize_histogram);
} queue_time SEC(".maps");

static const struct quantize_histogram empty_histogram;

static __always_inline void on_enqueue(struct task_struct *task, u32 cpu) {
  struct queued_thread key = {task->pid, task->tgid, cpu};
  u64 now = bpf_ktime_get_ns();
  bpf_map_update_elem(&enqueued_at, &key, &now, BPF_ANY);
}

static __always_inline void on_dequeue(struct task_struct *task, u32 cpu) {
  struct queued_thread key = {task->pid, task->tgid, cpu};
  u64 *since = bpf_map_lookup_elem(&enqueued_at, &key);
  if (!since || !*since) return;
  struct quantize_histogram *h = bpf_map_lookup_elem(&queue_time, &cpu);
  if (!h) {
    bpf_map_update_elem(&queue_time, &cpu, &empty_histogram, BPF_NOEXIST);
    h = bpf_map_lookup_elem(&queue_time, &cpu);
  }
  if (h) {
    h->buckets[quantize_bucket(bpf_ktime_get_ns() - *since)] += 1;
  }
  bpf_map_delete_elem(&enqueued_at, &key);
}

char LICENSE[] SEC("license") = "GPL";
