// The few kernel types the hand-written programs touch. preserve_access_index makes every field
// access a CO-RE relocation, so libbpf fixes the offsets from the running kernel's BTF at load time
// (the same offsets dsched resolves at compile time): no generated vmlinux.h needed.
#ifndef BENCH_TYPES_BPF_H
#define BENCH_TYPES_BPF_H

#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

typedef unsigned int u32;
typedef unsigned long long u64;
typedef long long s64;

struct thread_info {
  u32 cpu;
} __attribute__((preserve_access_index));

struct task_struct {
  struct thread_info thread_info;
  int on_cpu;
  int pid;
  int tgid;
} __attribute__((preserve_access_index));

// quantize() buckets as DTrace lays them out for non-negative values: bucket 0 holds 0, bucket
// n + 1 holds [2^n, 2^(n+1)).
#define QUANTIZE_BUCKETS 65

static __always_inline u32 quantize_bucket(u64 v) {
  return v ? 64 - __builtin_clzll(v) : 0;
}

#endif
