/* A constant 0 divisor is refused whatever the dividend: the clause could never complete. */
BEGIN
{
	x = 1;
	x %= 0;
}
