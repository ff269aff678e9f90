#!/usr/bin/env -S dsched -s
/*
 * runqlat.d: run-queue latency. The time from a thread becoming runnable (woken, or preempted
 * while still runnable) to it running again, in microseconds: how long threads wait for a CPU.
 * A long tail means more runnable threads than CPUs. Ctrl-C prints the histogram.
 */
#pragma D option quiet

sched:::enqueue
{
	queued[args[0]->pr_lwpid] = timestamp;
}

sched:::on-cpu
/queued[tid]/
{
	@runq_us = quantize((timestamp - queued[tid]) / 1000);
	queued[tid] = 0;
}
