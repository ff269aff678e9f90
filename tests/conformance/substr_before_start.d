/*
 * substr() with a negative index reaching before the start of the string: as in DTrace, the
 * bytes the index lacks come off the length, and nothing is left when the length does not reach
 * past them. A negative length leaves bytes off the end.
 */
#pragma D option quiet

BEGIN
{
	s = "hello world";
	printf("[%s] [%s] [%s] [%s]\n", substr(s, -20, 2), substr(s, -12, 5), substr(s, -12, 300), substr(s, -20));
	printf("[%s] [%s] [%s] [%s]\n", substr(s, -20, -3), substr(s, -5, -1), substr(s, 3, -20), substr(s, 11, 2));
	exit(0);
}
