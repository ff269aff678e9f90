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
  u32 status;
  u32 cpu;
} __attribute__((preserve_access_index));

struct task_struct {
  struct thread_info thread_info;
  int on_cpu;
  int pid;
  int tgid;
} __attribute__((preserve_access_index));

struct pt_regs {
  unsigned long orig_ax;
} __attribute__((preserve_access_index));

// A system call made by a 32-bit task (thread_info.status) has another table's numbers: the
// syscall programs leave it alone, as dsched's syscall provider does.
#define TS_COMPAT 0x0002
#define NR_READ 0

static __always_inline bool native_call(void) {
  struct task_struct *task = bpf_get_current_task_btf();
  return !(task->thread_info.status & TS_COMPAT);
}

// Adds 1 to the count at `key` in a per-CPU hash of u64 counts, inserting the key when it is new.
static __always_inline void count_one(void *map, u32 key) {
  u64 *n = bpf_map_lookup_elem(map, &key);
  if (!n) {
    u64 zero = 0;
    bpf_map_update_elem(map, &key, &zero, BPF_NOEXIST);
    n = bpf_map_lookup_elem(map, &key);
    if (!n) return;
  }
  *n += 1;
}

// quantize() buckets as DTrace lays them out for non-negative values: bucket 0 holds 0, bucket
// n + 1 holds [2^n, 2^(n+1)).
#define QUANTIZE_BUCKETS 65

struct quantize_histogram {
  u64 buckets[QUANTIZE_BUCKETS];
};

// floor(log2(v)) + 1 for v > 0 by halving the search range (BPF has no count-leading-zeros
// instruction), then hidden from the optimiser so the verifier still sees the bound check.
static __always_inline u32 quantize_bucket(u64 v) {
  if (!v) return 0;
  u32 log2 = 0, shift;
  shift = (v > 0xffffffffull) << 5; v >>= shift; log2 |= shift;
  shift = (v > 0xffff) << 4; v >>= shift; log2 |= shift;
  shift = (v > 0xff) << 3; v >>= shift; log2 |= shift;
  shift = (v > 0xf) << 2; v >>= shift; log2 |= shift;
  shift = (v > 0x3) << 1; v >>= shift; log2 |= shift;
  log2 |= (u32)(v >> 1);
  u32 bucket = log2 + 1;
  asm volatile("" : "+r"(bucket));
  return bucket < QUANTIZE_BUCKETS ? bucket : QUANTIZE_BUCKETS - 1;
}

#endif
