// enqueue/dequeue with DTrace's dispatch-queue meaning, derived from tracepoints the way dsched's
// sched provider does it: each task's state is "queued on CPU c" (kept as c + 1) or 0, in task
// storage.
//   sched_wakeup(_new) of a task neither queued nor on a CPU  -> enqueue on its CPU
//   sched_switch leaving a non-idle prev runnable              -> enqueue prev on this CPU
//   sched_switch picking a queued, non-idle next               -> dequeue next
//   sched_migrate_task of a queued task                        -> dequeue old CPU, enqueue new
// The including program defines on_enqueue() and on_dequeue().
#ifndef QUEUE_TRACKING_BPF_H
#define QUEUE_TRACKING_BPF_H

#include "bench_types.bpf.h"

static __always_inline void on_enqueue(struct task_struct *task, u32 cpu);
static __always_inline void on_dequeue(struct task_struct *task, u32 cpu);

struct {
  __uint(type, BPF_MAP_TYPE_TASK_STORAGE);
  __uint(map_flags, BPF_F_NO_PREALLOC);
  __type(key, int);
  __type(value, u64);
} queue_state SEC(".maps");

static __always_inline void enqueue_if_idle(struct task_struct *task, u32 cpu) {
  u64 *state = bpf_task_storage_get(&queue_state, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
  if (state && *state == 0) {
    *state = (u64)cpu + 1;
    on_enqueue(task, cpu);
  }
}

static __always_inline void wakeup(struct task_struct *task) {
  // A task woken before it left its CPU was never queued.
  if (task->on_cpu == 0) enqueue_if_idle(task, task->thread_info.cpu);
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(queue_wakeup, struct task_struct *task) {
  wakeup(task);
  return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(queue_wakeup_new, struct task_struct *task) {
  wakeup(task);
  return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(queue_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
             unsigned int prev_state) {
  if ((preempt || prev_state == 0) && prev->pid != 0) enqueue_if_idle(prev, bpf_get_smp_processor_id());
  if (next->pid != 0) {
    u64 *state = bpf_task_storage_get(&queue_state, next, 0, 0);
    if (state && *state) {
      u32 cpu = *state - 1;
      *state = 0;
      on_dequeue(next, cpu);
    }
  }
  return 0;
}

SEC("tp_btf/sched_migrate_task")
int BPF_PROG(queue_migrate, struct task_struct *task, int dest_cpu) {
  u64 *state = bpf_task_storage_get(&queue_state, task, 0, 0);
  if (state && *state) {
    u32 from = *state - 1;
    *state = (u64)(u32)dest_cpu + 1;
    on_dequeue(task, from);
    on_enqueue(task, dest_cpu);
  }
  return 0;
}

#endif
