/* Unary minus needs an arithmetic operand. */
BEGIN
{
	x = -"text";
}
