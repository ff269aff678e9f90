// dsched timeline: scheduler events into one ring buffer, on BTF tracepoints (no tracefs needed).
// Every program is named dstl_<event>. The recorder sets the read-only configuration below before
// loading. A full ring buffer drops the event and counts it for the CPU it happened on.
#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "timeline_records.h"


// The fields used, relocated against the running kernel's BTF at load time (CO-RE).
struct thread_info {
  __u32 cpu;
} __attribute__((preserve_access_index));

struct task_struct {
  struct thread_info thread_info;
  int prio;
  int exit_state;
  int pid;
  int tgid;
  struct task_struct *real_parent;
  char comm[DSTL_COMM_LEN];
} __attribute__((preserve_access_index));

struct linux_binprm {
  const char *filename;
} __attribute__((preserve_access_index));

const volatile __u32 filter_kind = DSTL_FILTER_NONE;
const volatile int filter_tgid = 0;
const volatile char filter_comm[DSTL_COMM_LEN] = {};
const volatile __u32 all_cpus = 1;
const volatile __u64 cpu_mask[DSTL_MAX_CPUS / 64] = {};
// Consumer wake-up: only once this much is waiting, so a busy CPU does not wake it per event.
const volatile __u64 wakeup_bytes = 1 << 20;

struct {
  __uint(type, BPF_MAP_TYPE_RINGBUF);
  __uint(max_entries, 8 << 20);
} events SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
  __uint(max_entries, 1);
  __type(key, __u32);
  __type(value, __u64);
} lost_events SEC(".maps");

// Per CPU, with a filter: the last switch recorded here put a filtered-out thread on the CPU, so
// the next switch away from it is recorded too (as a switch to idle) to end its slice.
struct {
  __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
  __uint(max_entries, 1);
  __type(key, __u32);
  __type(value, __u32);
} other_on_cpu SEC(".maps");

// Kernel task state bits (include/linux/sched.h), stable since 4.14.
#define TASK_UNINTERRUPTIBLE 0x0002
#define TASK_NOLOAD 0x0400
#define TASK_IDLE (TASK_UNINTERRUPTIBLE | TASK_NOLOAD)
#define TASK_RTLOCK_WAIT 0x1000
#define TASK_FROZEN 0x8000
#define TASK_REPORT 0x7f
#define TASK_REPORT_IDLE (TASK_REPORT + 1)
#define TASK_REPORT_MAX (TASK_REPORT_IDLE << 1)

// prev_state as the sched_switch tracepoint's format reports it (__trace_sched_switch_state):
// preempted tasks as TASK_REPORT_MAX, others as the single highest reported state bit.
static __always_inline __u32 reported_state(bool preempt, __u32 state, int exit_state) {
  if (preempt) return TASK_REPORT_MAX;
  __u32 report = (state | (__u32)exit_state) & TASK_REPORT;
  if ((state & TASK_IDLE) == TASK_IDLE) report = TASK_REPORT_IDLE;
  if (state & (TASK_RTLOCK_WAIT | TASK_FROZEN)) report = TASK_UNINTERRUPTIBLE;
  // The highest set bit alone (fls, then 1 << (fls - 1)).
  for (int bit = 7; bit >= 0; --bit)
    if (report & (1u << bit)) return 1u << bit;
  return 0;
}

static __always_inline void copy_comm(char *to, const char *from) {
  __builtin_memcpy(to, from, DSTL_COMM_LEN);
}

static __always_inline bool comm_matches(const char *comm) {
  for (int i = 0; i < DSTL_COMM_LEN; ++i) {
    if (comm[i] != filter_comm[i]) return false;
    if (!comm[i]) return true;
  }
  return true;
}

static __always_inline bool task_matches(struct task_struct *task) {
  if (filter_kind == DSTL_FILTER_TGID) return task->tgid == filter_tgid;
  if (filter_kind == DSTL_FILTER_COMM) return comm_matches(task->comm);
  return true;
}

static __always_inline bool cpu_selected(__u32 cpu) {
  if (all_cpus) return true;
  if (cpu >= DSTL_MAX_CPUS) return false;
  return (cpu_mask[cpu / 64] >> (cpu % 64)) & 1;
}

static __always_inline void *reserve(__u64 size, __u32 kind, __u32 cpu, __u64 ts) {
  struct dstl_header *header = bpf_ringbuf_reserve(&events, size, 0);
  if (!header) {
    __u32 zero = 0;
    __u64 *lost = bpf_map_lookup_elem(&lost_events, &zero);
    if (lost) *lost += 1;
    return 0;
  }
  header->ts = ts;
  header->kind = kind;
  header->cpu = cpu;
  return header;
}

static __always_inline void submit(void *record) {
  __u64 waiting = bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA);
  bpf_ringbuf_submit(record, waiting >= wakeup_bytes ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(dstl_switch, bool preempt, struct task_struct *prev, struct task_struct *next, unsigned int prev_state) {
  __u64 ts = bpf_ktime_get_boot_ns();
  __u32 cpu = bpf_get_smp_processor_id();
  if (!cpu_selected(cpu)) return 0;
  bool hide_next = false;
  if (filter_kind != DSTL_FILTER_NONE) {
    __u32 zero = 0;
    __u32 *other = bpf_map_lookup_elem(&other_on_cpu, &zero);
    if (!other) return 0;
    bool next_matches = task_matches(next);
    if (task_matches(prev) || next_matches) {
      *other = !next_matches && next->pid != 0;
    } else if (*other) {
      *other = 0;
      hide_next = true;
    } else {
      return 0;
    }
  }
  struct dstl_switch *record = reserve(sizeof *record, DSTL_SWITCH, cpu, ts);
  if (!record) return 0;
  record->prev_pid = prev->pid;
  record->prev_state = reported_state(preempt, prev_state, prev->exit_state);
  if (hide_next) {
    record->next_pid = 0;
    record->next_prio = 120;
    __builtin_memset(record->next_comm, 0, DSTL_COMM_LEN);
  } else {
    record->next_pid = next->pid;
    record->next_prio = next->prio;
    copy_comm(record->next_comm, next->comm);
  }
  submit(record);
  return 0;
}

static __always_inline int record_wakeup(__u32 kind, struct task_struct *task) {
  __u64 ts = bpf_ktime_get_boot_ns();
  __u32 cpu = bpf_get_smp_processor_id();
  __u32 target_cpu = task->thread_info.cpu;
  if (!cpu_selected(cpu) && !cpu_selected(target_cpu)) return 0;
  struct task_struct *waker = bpf_get_current_task_btf();
  if (!task_matches(task) && !task_matches(waker)) return 0;
  struct dstl_wakeup *record = reserve(sizeof *record, kind, cpu, ts);
  if (!record) return 0;
  record->waker_pid = waker->pid;
  record->pid = task->pid;
  record->prio = task->prio;
  record->target_cpu = target_cpu;
  copy_comm(record->comm, task->comm);
  submit(record);
  return 0;
}

SEC("tp_btf/sched_waking")
int BPF_PROG(dstl_waking, struct task_struct *task) { return record_wakeup(DSTL_WAKING, task); }

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(dstl_wakeup_new, struct task_struct *task) { return record_wakeup(DSTL_WAKEUP_NEW, task); }

SEC("tp_btf/sched_migrate_task")
int BPF_PROG(dstl_migrate, struct task_struct *task, int dest_cpu) {
  __u64 ts = bpf_ktime_get_boot_ns();
  __u32 orig_cpu = task->thread_info.cpu;
  if (!cpu_selected(orig_cpu) && !cpu_selected(dest_cpu)) return 0;
  if (!task_matches(task)) return 0;
  struct dstl_migrate *record = reserve(sizeof *record, DSTL_MIGRATE, bpf_get_smp_processor_id(), ts);
  if (!record) return 0;
  record->current_pid = (__u32)bpf_get_current_pid_tgid();
  record->pid = task->pid;
  record->prio = task->prio;
  record->orig_cpu = orig_cpu;
  record->dest_cpu = dest_cpu;
  copy_comm(record->comm, task->comm);
  submit(record);
  return 0;
}

SEC("tp_btf/task_newtask")
int BPF_PROG(dstl_newtask, struct task_struct *task, __u64 clone_flags) {
  __u64 ts = bpf_ktime_get_boot_ns();
  struct task_struct *parent = bpf_get_current_task_btf();
  if (!task_matches(task) && !task_matches(parent)) return 0;
  struct dstl_newtask *record = reserve(sizeof *record, DSTL_NEWTASK, bpf_get_smp_processor_id(), ts);
  if (!record) return 0;
  record->parent_pid = parent->pid;
  record->ppid = task->real_parent->tgid;
  record->pid = task->pid;
  record->tgid = task->tgid;
  record->clone_flags = clone_flags;
  copy_comm(record->comm, task->comm);
  submit(record);
  return 0;
}

// With a comm filter, a thread renamed into or out of the name while it runs starts or stops
// matching there: the trace shows it switched in at the rename (the CPU showed idle for it until
// then), or shows the CPU idle from its next switch on.
static __always_inline void running_task_changes_match(struct task_struct *task, const char *newcomm,
                                                       bool now_matches, __u32 cpu, __u64 ts) {
  __u32 zero = 0;
  __u32 *other = bpf_map_lookup_elem(&other_on_cpu, &zero);
  if (!other || !cpu_selected(cpu)) return;
  *other = !now_matches;
  if (!now_matches) return;
  struct dstl_switch *record = reserve(sizeof *record, DSTL_SWITCH, cpu, ts);
  if (!record) return;
  record->prev_pid = 0;
  record->prev_state = 0;
  record->next_pid = task->pid;
  record->next_prio = task->prio;
  copy_comm(record->next_comm, newcomm);
  submit(record);
}

SEC("tp_btf/task_rename")
int BPF_PROG(dstl_rename, struct task_struct *task, const char *comm) {
  __u64 ts = bpf_ktime_get_boot_ns();
  __u32 cpu = bpf_get_smp_processor_id();
  char newcomm[DSTL_COMM_LEN] = {};
  bpf_probe_read_kernel_str(newcomm, sizeof newcomm, comm);
  bool matched = task_matches(task);
  bool will_match = filter_kind == DSTL_FILTER_COMM ? comm_matches(newcomm) : matched;
  if (!matched && !will_match) return 0;
  if (matched != will_match && task->pid == (int)bpf_get_current_pid_tgid())
    running_task_changes_match(task, newcomm, will_match, cpu, ts);
  struct dstl_rename *record = reserve(sizeof *record, DSTL_RENAME, cpu, ts);
  if (!record) return 0;
  record->pid = task->pid;
  record->tgid = task->tgid;
  copy_comm(record->oldcomm, task->comm);
  copy_comm(record->newcomm, newcomm);
  submit(record);
  return 0;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(dstl_exec, struct task_struct *task, int old_pid, struct linux_binprm *bprm) {
  __u64 ts = bpf_ktime_get_boot_ns();
  if (!task_matches(task)) return 0;
  struct dstl_exec *record = reserve(sizeof *record, DSTL_EXEC, bpf_get_smp_processor_id(), ts);
  if (!record) return 0;
  record->pid = task->pid;
  record->old_pid = old_pid;
  bpf_probe_read_kernel_str(record->filename, sizeof record->filename, bprm->filename);
  submit(record);
  return 0;
}

SEC("tp_btf/sched_process_free")
int BPF_PROG(dstl_free, struct task_struct *task) {
  __u64 ts = bpf_ktime_get_boot_ns();
  if (!task_matches(task)) return 0;
  struct dstl_free *record = reserve(sizeof *record, DSTL_FREE, bpf_get_smp_processor_id(), ts);
  if (!record) return 0;
  record->current_pid = (__u32)bpf_get_current_pid_tgid();
  record->pid = task->pid;
  record->prio = task->prio;
  copy_comm(record->comm, task->comm);
  submit(record);
  return 0;
}

char LICENSE[] SEC("license") = "GPL";
