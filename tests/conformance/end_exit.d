#pragma D option quiet

/*
 * exit() in one END clause does not stop the later END clauses: they all run and print, and the
 * aggregations print after them.
 */
dtrace:::BEGIN
{
	@n = count();
	exit(0);
}

dtrace:::END
{
	printf("end 1\n");
	exit(0);
}

dtrace:::END
{
	printf("end 2\n");
}
