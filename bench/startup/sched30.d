/*
 * Start-up benchmark: a typical scheduler script. It attaches sched and
 * profile probes that aggregate, and the first tick ends the run, so a run
 * times compiling, loading, attaching, the first event and tearing down.
 */
#pragma D option quiet

sched:::on-cpu
{
	self->on = timestamp;
	@switches[cpu] = count();
}

sched:::off-cpu
/self->on/
{
	@oncpu[cpu] = quantize(timestamp - self->on);
	self->on = 0;
}

sched:::wakeup { @wakeups[execname] = count(); }

profile-997 { @samples[cpu] = count(); }

tick-1ms
{
	printf("first tick\n");
	exit(0);
}

END { printa("%-16s %@8u\n", @wakeups); }
