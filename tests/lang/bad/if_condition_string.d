BEGIN
{
	if ("yes")
		trace(1);
}
