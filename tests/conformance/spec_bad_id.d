#pragma D option quiet

/*
 * commit() or discard() of an id that names no buffer (negative, or above nspec, 1 by default)
 * is an illegal operation (DTRACEFLT_ILLOP, 3): the clause stops and ERROR fires. Id 0, what
 * speculation() gives when no buffer is free, does nothing.
 */
dtrace:::BEGIN
{
	commit(-1);
}

dtrace:::BEGIN
{
	discard(2);
}

dtrace:::BEGIN
{
	commit(0);
}

dtrace:::BEGIN
{
	discard(0);
	printf("id 0 is no fault\n");
}

dtrace:::ERROR
{
	printf("fault %d in enabled probe %d\n", arg4, arg1);
}

dtrace:::BEGIN
{
	exit(0);
}
