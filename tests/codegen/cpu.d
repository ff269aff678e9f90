/*
 * -x cpu=1 as a pragma: every probe's program starts by comparing the CPU it runs on with 1 and
 * returns at once on another; BEGIN and END, run in dsched's own context, have no such check.
 */
#pragma D option cpu=1

BEGIN
{
	start = timestamp;
}

sched:::on-cpu
{
	@[cpu] = count();
}

profile-97
{
	@ticks = count();
}
