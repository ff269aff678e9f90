BEGIN
{
	arg0 ? trace(1) : trace(2);
}
