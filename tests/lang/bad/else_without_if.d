BEGIN
{
	trace(1);
	else trace(2);
}
