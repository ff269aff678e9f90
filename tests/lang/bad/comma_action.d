/* An action cannot be a step of a comma expression. */
BEGIN
{
	x = (trace(1), 1);
}
