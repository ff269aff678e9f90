#pragma D option quiet

/*
 * Several strjoin() calls in one clause, on string variables, each result joined again; strlen()
 * of the results. With strsize=16 a joined string keeps its first 16 characters.
 */
#pragma D option strsize=16

dtrace:::BEGIN
{
	a = "abcdefghij";
	b = "klmnopqrst";
	x = strjoin(a, b);
	y = strjoin("<", strjoin(b, ">"));
	z = strjoin(strjoin("", ""), strjoin("1", "2"));
	printf("%s %d|%s %d|%s %d\n", x, strlen(x), y, strlen(y), z, strlen(z));
	printf("%s|%s\n", strjoin(x, a), strjoin("ab", "c"));
	exit(0);
}
