#pragma D option quiet

/*
 * A fault stops its clause and discards what the clause recorded; ERROR fires at once with
 * arg1 the enabled probe (clauses numbered 1, 2, ... in order), arg2 the statement, arg4 the
 * DTRACEFLT_* kind (1 bad address, 4 divide-by-zero), arg5 the address; the probe's later clauses
 * still run, in BEGIN and in END alike.
 */
dtrace:::BEGIN
{
	printf("discarded 1\n");
	x = 0;
	y = 10 / x;
	printf("not reached\n");
}

dtrace:::BEGIN
{
	printf("discarded 2\n");
	trace(*(int *)8);
}

dtrace:::BEGIN
{
	printf("clause 3 runs, x = %d\n", x);
}

dtrace:::ERROR
{
	printf("ERROR epid %d action %d fault %d address %d\n", arg1, arg2, arg4, arg5);
}

dtrace:::BEGIN
{
	exit(0);
}

dtrace:::END
{
	printf("discarded 6\n");
	n = x % x;
}

dtrace:::END
{
	printf("end 2\n");
}
