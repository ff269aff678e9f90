/*
 * A variable's first use in program order may be ++ or --: it creates an int64_t that reads 0
 * (DTrace's dt_cook_op1), in a predicate as in a body, for globals, self-> variables and
 * associative array elements alike. The predicate below sees n = 0, 1, 2, 3 on the first four
 * ticks and passes on the fourth, when n becomes 4.
 */
#pragma D option quiet

BEGIN
{
	self->count++;
	hits["x"]++;
	hits["x"]++;
	--down;
	printf("%d %d %d\n", self->count, hits["x"], down);
}

tick-10ms
/n++ >= 3/
{
	printf("%d %d\n", n, sizeof (n));
	exit(0);
}
