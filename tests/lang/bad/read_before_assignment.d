BEGIN
{
	trace(x);
	x = 1;
}
