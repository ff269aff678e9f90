#!/usr/bin/env -S dsched -s
/*
 * offcputime.d: off-CPU time by process and stack, in microseconds, like BCC's offcputime: where
 * threads block, and for how long. Ctrl-C prints both tables; add `-x foldstacks` for flame-graph
 * lines.
 *
 * @kernel: by kernel stack, the one a thread left the CPU with, read when it comes back.
 * @user: by user stack, for time blocked inside system calls. A thread's user stack can be read
 * only while it runs; inside a system call it does not change, so the time the call spent off the
 * CPU is added up and charged to the user stack when the call returns.
 */
#pragma D option quiet

/* Declared, as its first use adds to it. */
self uint64_t blocked;

sched:::off-cpu
{
	self->off = timestamp;
}

sched:::on-cpu
/self->off/
{
	this->us = (timestamp - self->off) / 1000;
	@kernel[execname, stack()] = sum(this->us);
	self->blocked += this->us;
	self->off = 0;
}

syscall:::return
/self->blocked/
{
	@user[execname, ustack()] = sum(self->blocked);
	self->blocked = 0;
}
