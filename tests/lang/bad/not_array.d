#pragma D option quiet
/* A char array is not a truth value: DTrace decays arrays only where pointers are expected. */
BEGIN
{
	ok = !curpsinfo->pr_fname;
}
