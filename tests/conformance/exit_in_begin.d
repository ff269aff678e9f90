#pragma D option quiet

/*
 * exit() in a BEGIN clause: the later BEGIN clauses do not run (their aggregation stays empty
 * and prints nothing), no tick fires a clause, and END runs.
 */
dtrace:::BEGIN
{
	exit(0);
}

dtrace:::BEGIN
{
	@later_begin = count();
	printf("not printed\n");
}

profile:::tick-1ms
{
	@tick = count();
}

dtrace:::END
{
	printf("END\n");
}
