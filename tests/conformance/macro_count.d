#pragma D option quiet

/* $# is the number of script arguments; $$0 the script's name as given. */
BEGIN
{
	printf("%d [%s]\n", $#, $$0);
	exit(0);
}
