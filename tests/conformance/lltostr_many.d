/*
 * Many lltostr() calls in one clause load: each call's digit count is one unknown value to the
 * verifier, not one path per length. Truncation at strsize (8 characters) keeps the leading digits.
 */
#pragma D option quiet
#pragma D option strsize=8

BEGIN
{
	x = 1234567890123;
	printf("%s %s %s %s\n", lltostr(x), lltostr(-x), lltostr(x, 16), lltostr(x, 8));
	printf("%s %s %s %s\n", lltostr(x / 1000), lltostr(-x / 1000), lltostr(x / 1000, 16), lltostr(x / 1000, 2));
	printf("%s %s %s %s\n", lltostr(x % 1000), lltostr(-7), lltostr(255, 16), lltostr(8, 8));
	printf("%s %s %s %s\n", lltostr(0), lltostr(0, 16), lltostr(0, 8), lltostr(35, 36));
	printf("%s %s %s %s\n", lltostr(timestamp) != "" ? "ok" : "empty", lltostr(walltimestamp / 1000000000) != "" ? "ok" : "empty",
	    lltostr(pid) != "" ? "ok" : "empty", lltostr(-9223372036854775807 - 1));
	exit(0);
}
