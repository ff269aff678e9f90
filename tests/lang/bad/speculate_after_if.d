BEGIN
{
	if (1)
		x = 1;
	speculate(speculation());
	trace(1);
}
