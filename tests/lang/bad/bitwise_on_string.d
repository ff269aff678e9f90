/* The bitwise operators need integer operands. */
BEGIN
{
	x = execname & 1;
}
