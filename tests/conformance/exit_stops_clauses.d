#pragma D option quiet

/*
 * Once exit() has run, no clause runs but END's and ERROR's, as DTrace stops enablings while
 * it drains: not a later clause of the same firing, not a later firing of any probe, not a
 * later BEGIN clause. So the aggregations below stay empty and print nothing at exit; the
 * clause that calls exit() still finishes its own statements.
 */
int done;

dtrace:::BEGIN
{
	@begin = count();
}

profile:::tick-10ms
/done/
{
	@after = count();
}

profile:::tick-10ms
/++ticks == 3/
{
	exit(0);
	done = 1;
	printf("exit at tick %d\n", ticks);
}

profile:::tick-10ms
/done/
{
	@same_firing = count();
}

dtrace:::END
{
	printf("END runs: done = %d\n", done);
}
