BEGIN
{
	x = arg0 ? 1 : exit(0);
}
