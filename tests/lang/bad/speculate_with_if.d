BEGIN
{
	speculate(speculation());
	if (1)
		trace(1);
}
