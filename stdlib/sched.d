/*
 * sched.d: DTrace's view of a CPU (cpuinfo_t, args[2] of sched:::enqueue/dequeue and curcpu),
 * translated from a CPU number. Processor sets and locality groups do not exist on Linux.
 * cpu_chip is left out of the translator: the physical package of a CPU is not readable from a
 * tracing program here, and a made-up value would mislead; using it is a compile error.
 */
typedef struct cpuinfo {
  processorid_t cpu_id;   /* CPU number */
  psetid_t cpu_pset;      /* processor set: always -1 (none) */
  chipid_t cpu_chip;      /* physical package: not available */
  lgrp_id_t cpu_lgrp;     /* locality group: always 0 (one group) */
} cpuinfo_t;

translator cpuinfo_t < processorid_t C > {
  cpu_id = C;
  cpu_pset = -1;
  cpu_lgrp = 0;
};
