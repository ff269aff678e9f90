#!/usr/bin/env -S dsched -s
/*
 * offcpu.d: off-CPU time. How long a thread stays off the CPU each time it leaves it (blocked on
 * I/O, a lock, a sleep, or waiting for a CPU), in milliseconds. Ctrl-C prints the histogram.
 */
#pragma D option quiet

sched:::off-cpu
{
	self->off = timestamp;
}

sched:::on-cpu
/self->off/
{
	@offcpu_ms = quantize((timestamp - self->off) / 1000000);
	self->off = 0;
}
