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
  uid_t pr_uid;           /* real user id */
  uid_t pr_euid;          /* effective user id */
  gid_t pr_gid;           /* real group id */
  gid_t pr_egid;          /* effective group id */
  uintptr_t pr_addr;      /* address of the process's leading task_struct */
  int pr_wstat;           /* exit status, for a zombie */
  char pr_fname[16];      /* command name */
  char pr_psargs[80];     /* initial arguments: Linux keeps only the command name in the task */
} psinfo_t;

typedef struct lwpsinfo {
  int pr_flag;            /* task flags (PF_*) */
  id_t pr_lwpid;          /* thread id */
  uintptr_t pr_addr;      /* address of the thread's task_struct */
  char pr_state;          /* SSLEEP, SRUN, ... */
  char pr_sname;          /* the state's letter */
  int pr_nice;            /* nice value */
  int pr_pri;             /* kernel priority (lower runs first) */
  processorid_t pr_onpro; /* CPU the thread last ran on */
} lwpsinfo_t;

/*
 * Task state bits (include/linux/sched.h): TASK_INTERRUPTIBLE 0x1, TASK_UNINTERRUPTIBLE 0x2,
 * __TASK_STOPPED 0x4, __TASK_TRACED 0x8, TASK_NEW 0x800; exit_state EXIT_DEAD 0x10,
 * EXIT_ZOMBIE 0x20. A runnable task that is on a CPU is SONPROC.
 */
translator lwpsinfo_t < struct task_struct *T > {
  pr_flag = T->flags;
  pr_lwpid = T->pid;
  pr_addr = (uintptr_t)T;
  pr_state = (T->exit_state & 0x30) ? SZOMB :
             (T->__state & 0x3) ? SSLEEP :
             (T->__state & 0xc) ? SSTOP :
             (T->__state & 0x800) ? SIDL :
             T->on_cpu ? SONPROC : SRUN;
  pr_sname = (T->exit_state & 0x30) ? 'Z' :
             (T->__state & 0x3) ? 'S' :
             (T->__state & 0xc) ? 'T' :
             (T->__state & 0x800) ? 'I' :
             T->on_cpu ? 'O' : 'R';
  pr_nice = T->static_prio - 120;
  pr_pri = T->prio;
  pr_onpro = T->thread_info.cpu;
};

translator psinfo_t < struct task_struct *T > {
  pr_nlwp = T->signal->nr_threads;
  pr_pid = T->tgid;
  pr_ppid = T->real_parent->tgid;
  pr_uid = T->cred->uid.val;
  pr_euid = T->cred->euid.val;
  pr_gid = T->cred->gid.val;
  pr_egid = T->cred->egid.val;
  pr_addr = (uintptr_t)T->group_leader;
  pr_wstat = T->exit_code;
  pr_fname = T->comm;
  pr_psargs = T->comm;
};
