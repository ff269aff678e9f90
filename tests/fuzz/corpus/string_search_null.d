#pragma D option quiet

/*
 * strstr(), strchr() and strrchr() give NULL when they find nothing, as in DTrace: the usual
 * `strstr(s, t) != NULL` test works in predicates and expressions, the NULL stays NULL in a
 * variable, and recording it is a fault (invalid address 0) that stops its clause.
 */
BEGIN
{
	s = "/usr/lib/libc.so";
	printf("%d %d %d\n", strstr(s, "lib") != NULL, strstr(s, "bin") != NULL, strstr(s, "") != NULL);
	printf("%d %d %d %d\n", strchr(s, '.') == NULL, strchr(s, '#') == NULL, strrchr(s, '/') == NULL,
	    strrchr(s, '#') == NULL);
	missing = strstr(s, "bin");
	printf("%d %s\n", missing == NULL, strstr(s, "libc"));
}

BEGIN
/strstr(s, "usr") != NULL/
{
	printf("found usr\n");
}

BEGIN
/strchr(s, '#') != NULL/
{
	printf("not reached\n");
}

BEGIN
{
	printf("discarded\n");
	trace(strrchr(s, '#'));
}

BEGIN
{
	exit(0);
}

ERROR
{
	printf("ERROR fault %d address %d\n", arg4, arg5);
}
