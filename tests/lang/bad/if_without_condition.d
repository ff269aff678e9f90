BEGIN
{
	if trace(1);
}
