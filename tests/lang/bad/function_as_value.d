/* A function is called, not read. */
BEGIN
{
	x = trace;
}
