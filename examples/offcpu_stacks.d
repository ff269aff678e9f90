#!/usr/bin/env -S dsched -s
/*
 * offcpu_stacks.d: offcpu.d with the answer to "where?": the off-CPU time histogram in
 * milliseconds, one per kernel stack the threads left the CPU with. Ctrl-C prints them.
 */
#pragma D option quiet

sched:::off-cpu
{
	self->off = timestamp;
}

sched:::on-cpu
/self->off/
{
	@offcpu_ms[stack()] = quantize((timestamp - self->off) / 1000000);
	self->off = 0;
}
