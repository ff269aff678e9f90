#pragma D option quiet

/* cleanpath() removes "//" and "/./" and takes "/x/.." back, by the text alone; a component that
 * only starts with dots is a name. */
BEGIN
{
	printf("[%s] [%s] [%s]\n", cleanpath("/a/b/../c"), cleanpath("/a//b/./c/"), cleanpath("/usr/.hidden"));
	exit(0);
}
