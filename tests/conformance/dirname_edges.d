#pragma D option quiet

/* dirname() is what precedes the last component, its trailing slashes dropped: "." for "" and
 * for a name alone, "/" for slashes only and for a component right under the root. */
BEGIN
{
	printf("[%s] [%s] [%s] [%s] ", dirname(""), dirname("/"), dirname("/usr/lib/"), dirname("a"));
	printf("[%s] [%s] [%s] [%s]\n", dirname("/a"), dirname("a//b"), dirname("//a"), dirname("a/"));
	exit(0);
}
