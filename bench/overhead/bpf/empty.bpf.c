// The floor: a program that does nothing on each hook the scripts use. The loader attaches only
// the ones a scenario needs (--only), so each scenario pays exactly for entering its hooks.
#include "bench_types.bpf.h"

SEC("tp_btf/sched_switch")
int empty_switch(void *ctx) { return 0; }

SEC("tp_btf/sched_wakeup")
int empty_wakeup(void *ctx) { return 0; }

SEC("tp_btf/sched_wakeup_new")
int empty_wakeup_new(void *ctx) { return 0; }

SEC("tp_btf/sched_migrate_task")
int empty_migrate(void *ctx) { return 0; }

SEC("tp_btf/sys_enter")
int empty_sys_enter(void *ctx) { return 0; }

SEC("tp_btf/sys_exit")
int empty_sys_exit(void *ctx) { return 0; }

SEC("perf_event")
int empty_timer(void *ctx) { return 0; }

char LICENSE[] SEC("license") = "GPL";
