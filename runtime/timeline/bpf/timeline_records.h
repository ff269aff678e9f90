// The records the timeline's BPF programs put in the ring buffer, read by the recorder. Included by
// the BPF C program and by user space, so it uses the kernel's fixed-width types only.
#ifndef DSCHED_TIMELINE_RECORDS_H
#define DSCHED_TIMELINE_RECORDS_H

#include <linux/types.h>

#define DSTL_COMM_LEN 16
#define DSTL_FILENAME_LEN 128
// CPUs the --cpus mask can name.
#define DSTL_MAX_CPUS 1024

enum dstl_record_kind {
  DSTL_SWITCH = 1,
  DSTL_WAKING,
  DSTL_WAKEUP_NEW,
  DSTL_MIGRATE,
  DSTL_NEWTASK,
  DSTL_RENAME,
  DSTL_EXEC,
  DSTL_FREE,
};

enum dstl_filter_kind {
  DSTL_FILTER_NONE = 0,
  DSTL_FILTER_COMM,  // threads whose comm equals filter_comm
  DSTL_FILTER_TGID,  // threads of process filter_tgid
};

// ts: CLOCK_BOOTTIME ns; cpu: the CPU the event happened on.
struct dstl_header {
  __u64 ts;
  __u32 kind;
  __u32 cpu;
};

// prev_state is encoded as the kernel's sched_switch tracepoint reports it (a TASK_REPORT bit,
// or TASK_REPORT_MAX when preempted). next_pid 0 is the idle task, also standing for filtered-out
// threads when a filter is set.
struct dstl_switch {
  struct dstl_header header;
  __s32 prev_pid;
  __s32 next_pid;
  __s32 next_prio;
  __u32 prev_state;
  char next_comm[DSTL_COMM_LEN];
};

// sched_waking and sched_wakeup_new: the woken task, and the waker (the task running on this CPU).
struct dstl_wakeup {
  struct dstl_header header;
  __s32 waker_pid;
  __s32 pid;
  __s32 prio;
  __s32 target_cpu;
  char comm[DSTL_COMM_LEN];
};

// current_pid (migrate, free): the task running when the event happened.
struct dstl_migrate {
  struct dstl_header header;
  __s32 current_pid;
  __s32 pid;
  __s32 prio;
  __s32 orig_cpu;
  __s32 dest_cpu;
  char comm[DSTL_COMM_LEN];
};

// task_newtask: parent_pid is the creating thread; ppid the process it belongs to.
struct dstl_newtask {
  struct dstl_header header;
  __s32 parent_pid;
  __s32 ppid;
  __s32 pid;
  __s32 tgid;
  __u64 clone_flags;
  char comm[DSTL_COMM_LEN];
};

struct dstl_rename {
  struct dstl_header header;
  __s32 pid;
  __s32 tgid;
  char oldcomm[DSTL_COMM_LEN];
  char newcomm[DSTL_COMM_LEN];
};

struct dstl_exec {
  struct dstl_header header;
  __s32 pid;
  __s32 old_pid;
  char filename[DSTL_FILENAME_LEN];
};

struct dstl_free {
  struct dstl_header header;
  __s32 current_pid;
  __s32 pid;
  __s32 prio;
  char comm[DSTL_COMM_LEN];
};

#endif
