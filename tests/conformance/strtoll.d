/*
 * strtoll() as DTrace reads a number: leading white space, a sign, "0x" before a hex digit in base
 * 16, digits up to the first that is not one in the base, wrapping on overflow; a base outside
 * 2..36 is an illegal operation, which ERROR sees as fault 3 (DTRACEFLT_ILLOP).
 */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d\n", strtoll("123"), strtoll("  -42abc"), strtoll("+5"), strtoll(""));
	printf("%d %d %d %d\n", strtoll("0x1F", 16), strtoll("1f", 16), strtoll("0x", 16), strtoll("0xg", 16));
	printf("%d %d %d\n", strtoll("777", 8), strtoll("zz", 36), strtoll("101", 2));
	printf("%d %d %d\n", strtoll("12 34"), strtoll("--1"), strtoll("9223372036854775807"));
	printf("%d\n", strtoll("18446744073709551617"));
}

BEGIN
{
	x = strtoll("5", 37);
}

ERROR
{
	printf("fault %d\n", arg4);
	exit(0);
}
