/* A string must hold at least 2 characters. */
#pragma D option strsize=1

BEGIN
{
	exit(0);
}
