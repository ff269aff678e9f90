#pragma D option quiet

/*
 * speculate() before if statements: the data of every branch goes to the speculation, printed
 * when it is committed.
 */
dtrace:::BEGIN
{
	spec = speculation();
}

dtrace:::BEGIN
{
	speculate(spec);
	printf("first\n");
	if (spec > 0)
		printf("taken\n");
	else
		printf("not taken\n");
	printf("last\n");
}

dtrace:::BEGIN
{
	printf("before commit\n");
}

dtrace:::BEGIN
{
	commit(spec);
}

dtrace:::BEGIN
{
	exit(0);
}
