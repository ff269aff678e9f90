#pragma D option quiet

/*
 * timestamp is read once per clause: every use in one clause gives the same value; a later
 * clause of the same event sees that value or a later one, never an earlier one.
 */
dtrace:::BEGIN
{
	a = timestamp;
	x = 1;
	x = x * 3;
	printf("same in one clause: %d\n", timestamp - a);
	b = timestamp;
	printf("%d\n", b == a);
}

dtrace:::BEGIN
{
	printf("later clause: %d\n", timestamp >= a);
	exit(0);
}
