BEGIN
{
	x = x + 1;
}
