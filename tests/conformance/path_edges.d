#pragma D option quiet

/* basename() drops trailing slashes; "" gives "." and a path of slashes only "/". */
BEGIN
{
	printf("[%s] [%s] [%s] ", basename(""), basename("/"), basename("/usr/lib/"));
	printf("[%s] [%s] [%s]\n", basename("//a//"), basename("a"), basename("///"));
	exit(0);
}
