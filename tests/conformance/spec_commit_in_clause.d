#pragma D option quiet
#pragma D option nspec=2

/*
 * commit() and discard() may follow speculate() in the same clause: the clause's own data is
 * speculative, and the commit then prints the buffer with it, in the order speculated. A
 * discard() after speculate() drops the clause's data with the rest of its buffer.
 */
int spec, other;

dtrace:::BEGIN
{
	spec = speculation();
	other = speculation();
}

dtrace:::BEGIN
{
	speculate(spec);
	printf("first, speculated\n");
}

dtrace:::BEGIN
{
	printf("not speculative\n");
}

dtrace:::BEGIN
{
	speculate(spec);
	printf("second, speculated in the committing clause\n");
	commit(spec);
}

dtrace:::BEGIN
{
	speculate(other);
	printf("dropped\n");
	discard(other);
}

dtrace:::BEGIN
{
	exit(0);
}
