/* A decimal constant without u has no type past LLONG_MAX. */
BEGIN
{
	x = 9223372036854775808;
}
