/* The frame count of stack() is a constant. */
BEGIN
{
	stack(arg0);
}
