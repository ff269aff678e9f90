/* Probe arguments: argN as the probes define them, translated args[], the probe's names. */
sched:::change-pri
{
	printf("%s:%s %d %d %d\n", probeprov, probename, arg2, args[2], args[0]->pr_lwpid);
}

proc:::signal-send
{
	@sig[arg2, args[1]->pr_pid] = count();
}

profile-97
{
	@pc[arg0 != 0, arg1 != 0] = count();
}

tick-1s
{
	printa(@pc);
	trunc(@pc);
	printf("%d %d %d\n", epid, id, stackdepth);
}
