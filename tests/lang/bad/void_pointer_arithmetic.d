/* void has no size to step by. */
BEGIN
{
	p = (void *)0;
	p = p + 1;
}
