#pragma D option quiet

/*
 * Pieces of a string variable, many in one clause: substr() with a length, from the end, past the
 * end; strchr() from the first match; the pieces joined.
 */
dtrace:::BEGIN
{
	a = "hello world";
	printf("%s|%s|%s|", substr(a, 3, 4), substr(a, -5), substr(a, 20));
	printf("%s|", strchr(a, 'o'));
	printf("%s|%s\n", strjoin(substr(a, 0, 5), substr(a, 5)), substr(substr(a, 6), 1, 3));
	exit(0);
}
