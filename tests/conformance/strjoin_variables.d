#pragma D option quiet

/*
 * Four strjoin() calls on 256-byte string variables in one clause, and strlen() of each result:
 * a clause DTrace accepts loads.
 */
dtrace:::BEGIN
{
	a = "abc";
	b = "defg";
	x = strjoin(a, b);
	y = strjoin(x, a);
	z = strjoin(y, strjoin(b, b));
	printf("%s %s %s %d %d %d\n", x, y, z, strlen(x), strlen(y), strlen(z));
	exit(0);
}
