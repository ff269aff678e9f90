/* A control line D does not know, and that is not for cpp either. */
#frobnicate now
BEGIN
{
	exit(0);
}
