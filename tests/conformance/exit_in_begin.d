#pragma D option quiet

/*
 * exit() in a BEGIN clause: the clause that calls it finishes (after an if, too), the later
 * BEGIN clauses do not run (their aggregation stays empty and prints nothing), no tick fires a
 * clause, and END runs.
 */
dtrace:::BEGIN
{
	if (1) {
		exit(0);
	}
	printf("the rest of the exiting clause\n");
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
