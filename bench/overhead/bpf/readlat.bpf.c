// readlat.d by hand: read()'s entry stamps the task (task storage), its return adds the time
// since to a per-CPU quantize histogram with one key and zeroes the stamp.
#include "bench_types.bpf.h"

struct {
  __uint(type, BPF_MAP_TYPE_TASK_STORAGE);
  __uint(map_flags, BPF_F_NO_PREALLOC);
  __type(key, int);
  __type(value, u64);
} read_since SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_PERCPU_HASH);
  __uint(max_entries, 1024);
  __type(key, u32);
  __type(value, struct quantize_histogram);
} read_latency SEC(".maps");

static const struct quantize_histogram empty_histogram;

SEC("tp_btf/sys_enter")
int BPF_PROG(readlat_entry, struct pt_regs *regs, long id) {
  if (id != NR_READ || !native_call()) return 0;
  u64 *since = bpf_task_storage_get(&read_since, bpf_get_current_task_btf(), 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
  if (since) *since = bpf_ktime_get_ns();
  return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(readlat_return, struct pt_regs *regs, long ret) {
  if (regs->orig_ax != NR_READ || !native_call()) return 0;
  u64 *since = bpf_task_storage_get(&read_since, bpf_get_current_task_btf(), 0, 0);
  if (!since || !*since) return 0;
  u64 now = bpf_ktime_get_ns();
  u32 key = 0;
  struct quantize_histogram *h = bpf_map_lookup_elem(&read_latency, &key);
  if (!h) {
    bpf_map_update_elem(&read_latency, &key, &empty_histogram, BPF_NOEXIST);
    h = bpf_map_lookup_elem(&read_latency, &key);
  }
  if (h) h->buckets[quantize_bucket(now - *since)] += 1;
  *since = 0;
  return 0;
}

char LICENSE[] SEC("license") = "GPL";
