/* Only an object in memory has an address. */
BEGIN
{
	trace(&(arg0 + 1));
}
