/*
 * cleanpath() of a path held in a variable: "//" and "/./" go, "/x/.." is taken back, and a
 * ".." at the end leaves its slash ("/a/c/d/e/.." is "/a/c/d/").
 */
#pragma D option quiet

BEGIN
{
	p = "/a/b/../c/./d//e/..";
	q = "/x/../../y";
	printf("%s %s\n", cleanpath(p), cleanpath(q));
	exit(0);
}
