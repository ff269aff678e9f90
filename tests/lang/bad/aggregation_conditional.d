BEGIN
{
	@a = count();
	x = arg0 ? @a : 1;
}
