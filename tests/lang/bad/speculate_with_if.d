BEGIN
{
	if (1)
		speculate(speculation());
	trace(1);
}
