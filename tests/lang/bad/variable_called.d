/* A built-in variable is not a function. */
BEGIN
{
	timestamp();
}
