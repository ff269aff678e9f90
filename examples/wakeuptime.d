#!/usr/bin/env -S dsched -s
/*
 * wakeuptime.d: blocked time by waker, like BCC's wakeuptime: for each thread that slept, how long
 * until it was woken, charged to the process and the kernel and user stacks of the thread that
 * woke it (sched:::wakeup runs in the waker). Microseconds; Ctrl-C prints; add `-x foldstacks`
 * for flame-graph lines.
 */
#pragma D option quiet

sched:::off-cpu
/curlwpsinfo->pr_state == SSLEEP/
{
	asleep[tid] = timestamp;
}

sched:::wakeup
/asleep[args[0]->pr_lwpid]/
{
	@blocked_us[execname, ustack(), stack()] = sum((timestamp - asleep[args[0]->pr_lwpid]) / 1000);
	asleep[args[0]->pr_lwpid] = 0;
}
