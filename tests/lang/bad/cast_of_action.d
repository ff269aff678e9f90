BEGIN
{
	(void)trace(1);
}
