/* trace() needs a value. */
BEGIN
{
	trace((void)0);
}
