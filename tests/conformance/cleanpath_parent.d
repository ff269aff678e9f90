#pragma D option quiet

/* ".." at the end of a path keeps the slash it goes back to; "..." is a name. */
BEGIN
{
	printf("[%s] [%s] [%s]\n", cleanpath("/a/.."), cleanpath("/a/./b/../../c"), cleanpath("/a/b/.."));
	exit(0);
}
