#pragma D option quiet

/*
 * strtok(s, delim) skips the characters of delim, then returns the run of other characters;
 * strtok(NULL, delim) goes on after it, in the probe's later clauses too. With no token left the
 * value is NULL, and stays NULL. The delimiters may change from call to call; an empty delimiter
 * set makes the whole rest one token. Tracing a NULL string is a bad-address fault.
 */
dtrace:::BEGIN
{
	this->str = ",,,Carrots,,Barley,Oatmeal,,,Beans,";
	printf("%s\n", strtok(this->str, ","));
	printf("%s\n", strtok(NULL, ","));
}

dtrace:::BEGIN
{
	printf("%s\n", strtok(NULL, ","));
	printf("%s\n", strtok(NULL, ","));
	printf("%d\n", strtok(NULL, ",") == NULL);
	printf("%d\n", strtok(NULL, ",") != NULL);
}

dtrace:::BEGIN
{
	printf("%s|", strtok("foobar", "o"));
	printf("%s|", strtok(NULL, "o"));
	printf("%d\n", strtok(NULL, "o") == NULL);
	printf("%s|", strtok("a b:c", " "));
	printf("%s|", strtok(NULL, ""));
	printf("%d\n", strtok(NULL, ":") == NULL);
	printf("%d %d\n", strtok("", "x") == NULL, strtok(",,,", ",") == NULL);
	x = strtok("--key=value", "-=");
	printf("%s %d\n", x, x == NULL);
}

dtrace:::BEGIN
{
	printf("before\n");
	trace(strtok("abc", "abc"));
	printf("not reached\n");
}

dtrace:::ERROR
{
	printf("fault %d address %d\n", arg4, arg5);
}

dtrace:::BEGIN
{
	exit(0);
}
