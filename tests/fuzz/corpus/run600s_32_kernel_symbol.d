BEGIN
{
	tr`c0
}
