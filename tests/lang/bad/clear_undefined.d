BEGIN
{
	clear(@never[1]);
}
