#pragma D option quiet

/* index() and rindex() give a position or -1; the optional start clamps into the string for
 * index() and makes rindex() look at or before it. */
BEGIN
{
	printf("%d %d %d %d\n", index("hello world", "o"), rindex("hello world", "o"),
	    index("hello world", "o", 5), rindex("hello world", "o", 6));
	printf("%d %d %d %d\n", index("hello", "xyz"), index("hello", "lo"), rindex("hello", "l", -1),
	    index("hello", "h", -3));
	printf("[%s] [%s] [%s]\n", toupper("Hello, World 1"), tolower("MiXeD_CaSe"), toupper(""));
	exit(0);
}
