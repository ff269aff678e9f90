/*
 * procfs.d: DTrace's views of a process (psinfo_t) and of a thread (lwpsinfo_t), translated
 * from the kernel's struct task_struct, and the thread states they report.
 * Compiled ahead of every script; members are read only when a script uses them.
 */

/* Thread states (pr_state), with their letters (pr_sname) in the comments. */
inline int SSLEEP = 1;   /* S: sleeping, interruptibly or not */
inline int SRUN = 2;     /* R: runnable, waiting for a CPU */
inline int SZOMB = 3;    /* Z: exited, not yet reaped */
inline int SSTOP = 4;    /* T: stopped or traced */
inline int SIDL = 5;     /* I: being created */
inline int SONPROC = 6;  /* O: running on a CPU */
inline int SWAIT = 7;    /* W: waiting to become runnable (not distinguished on Linux) */

typedef struct psinfo {
  int pr_nlwp;            /* threads in the process */
  pid_t pr_pid;           /* process id (the thread group id) */
  pid_t pr_ppid;          /* parent's process id */
  pid_t pr_pgid;          /* process group id */
  pid_t pr_sid;           /* session id */
  uid_t pr_uid;           /* real user id */
  uid_t pr_euid;          /* effective user id */
  gid_t pr_gid;           /* real group id */
  gid_t pr_egid;          /* effective group id */
  uintptr_t pr_addr;      /* address of the process's leading task_struct */
  int pr_wstat;           /* exit status, for a zombie */
  char pr_fname[16];      /* command name */
  char pr_psargs[80];     /* initial arguments: of the current process; others, the command name */
  dev_t pr_ttydev;        /* controlling terminal's device (getmajor(), getminor()), or PRNODEV */
  char pr_dmodel;         /* data model: always PR_MODEL_LP64 (32-bit compat processes are not told apart) */
  taskid_t pr_taskid;     /* Solaris's task, project, pool, zone and contract ids: Linux has none */
  projid_t pr_projid;
  poolid_t pr_poolid;
  zoneid_t pr_zoneid;     /* the global zone */
  ctid_t pr_contract;
  int pr_nzomb;           /* zombie threads: a Linux thread is reaped as it exits */
} psinfo_t;

inline int PR_STOPPED = 0x00000001;
inline int PR_ISTOP = 0x00000002;
inline int PR_DSTOP = 0x00000004;
inline int PR_IDLE = 0x10000000;

inline char PR_MODEL_ILP32 = 1;
inline char PR_MODEL_LP64 = 2;
inline dev_t PRNODEV = (dev_t)-1;

typedef struct lwpsinfo {
  int pr_flag;            /* PR_STOPPED for a stopped thread, PR_IDLE for a CPU's idle task */
  id_t pr_lwpid;          /* thread id */
  uintptr_t pr_addr;      /* address of the thread's task_struct */
  uintptr_t pr_wchan;     /* Solaris's wait address and synchronisation object: 0, as DTrace for */
  char pr_stype;          /* Linux has them */
  char pr_state;          /* SSLEEP, SRUN, ... */
  char pr_sname;          /* the state's letter */
  int pr_nice;            /* nice value */
  int pr_pri;             /* kernel priority (lower runs first) */
  char pr_clname[8];      /* scheduling class: "TS", "RT", "DL", "EXT" (below) */
  char pr_name[16];       /* thread name */
  processorid_t pr_onpro; /* CPU the thread last ran on */
  processorid_t pr_bindpro; /* the one CPU the thread may run on, or -1 (PBIND_NONE) */
  psetid_t pr_bindpset;   /* processor set: always -1 (none) */
} lwpsinfo_t;

/*
 * Task state bits (include/linux/sched.h): TASK_INTERRUPTIBLE 0x1, TASK_UNINTERRUPTIBLE 0x2,
 * __TASK_STOPPED 0x4, __TASK_TRACED 0x8, TASK_NEW 0x800; exit_state EXIT_DEAD 0x10,
 * EXIT_ZOMBIE 0x20. A runnable task is SONPROC while it is its run queue's current task (every
 * task's se.cfs_rq leads to its run queue): from the moment the scheduler picks it, so that it is
 * SONPROC at on-cpu, and a thread preempted is SRUN at off-cpu, as in DTrace.
 *
 * pr_clname names the kernel's scheduling class the thread runs in, decided as the kernel decides
 * it, by its effective priority: below 0 the deadline class ("DL", SCHED_DEADLINE), below 100
 * the real-time class ("RT", SCHED_FIFO and SCHED_RR, and a thread that priority inheritance
 * lifted there), then sched_ext ("EXT", SCHED_EXT), else the fair class, which is DTrace's
 * time-sharing class ("TS": SCHED_NORMAL, SCHED_BATCH and SCHED_IDLE).
 * Members left out of a translator (Solaris's pr_syscall, pr_start, ...) do not exist
 * on Linux; a script that reads one gets a compile error naming it.
 */
translator lwpsinfo_t < struct task_struct *T > {
  pr_flag = ((T->__state & 0xc) ? PR_STOPPED : 0) | (T->pid == 0 ? PR_IDLE : 0);
  pr_lwpid = T->pid;
  pr_addr = (uintptr_t)T;
  pr_wchan = 0;
  pr_stype = 0;
  pr_state = (T->exit_state & 0x30) ? SZOMB :
             (T->__state & 0x3) ? SSLEEP :
             (T->__state & 0xc) ? SSTOP :
             (T->__state & 0x800) ? SIDL :
             T->se.cfs_rq->rq->curr == T ? SONPROC : SRUN;
  pr_sname = (T->exit_state & 0x30) ? 'Z' :
             (T->__state & 0x3) ? 'S' :
             (T->__state & 0xc) ? 'T' :
             (T->__state & 0x800) ? 'I' :
             T->se.cfs_rq->rq->curr == T ? 'O' : 'R';
  pr_nice = T->static_prio - 120;
  pr_pri = T->prio;
  pr_clname = T->prio < 0 ? "DL" : T->prio < 100 ? "RT" : T->policy == 7 ? "EXT" : "TS";
  pr_name = T->comm;
  pr_onpro = T->thread_info.cpu;
  pr_bindpro = T->nr_cpus_allowed == 1 ? T->thread_info.cpu : -1;
  pr_bindpset = -1;
};

translator psinfo_t < struct task_struct *T > {
  pr_nlwp = T->signal->nr_threads;
  pr_pid = T->tgid;
  pr_ppid = T->real_parent->tgid;
  pr_pgid = T->signal->pids[2]->numbers[0].nr;  /* PIDTYPE_PGID, in the initial namespace */
  pr_sid = T->signal->pids[3]->numbers[0].nr;   /* PIDTYPE_SID */
  pr_uid = T->cred->uid.val;
  pr_euid = T->cred->euid.val;
  pr_gid = T->cred->gid.val;
  pr_egid = T->cred->egid.val;
  pr_addr = (uintptr_t)T->group_leader;
  pr_wstat = T->exit_code;
  pr_fname = T->comm;
  pr_psargs = __psargs(T);
  /* A terminal's device number as the kernel encodes it: the driver's major, above 20 bits of minor. */
  pr_ttydev = T->signal->tty == NULL ? PRNODEV
                                     : ((dev_t)T->signal->tty->driver->major << 20) |
                                           (dev_t)(T->signal->tty->driver->minor_start + T->signal->tty->index);
  pr_dmodel = PR_MODEL_LP64;
  pr_taskid = 0;
  pr_projid = 0;
  pr_poolid = 0;
  pr_zoneid = 0;
  pr_contract = 0;
  pr_nzomb = 0;
};

/* Linux has no zones: every thread runs in what Solaris calls the global zone. */
inline string zonename = "global";
