#pragma D option quiet

dtrace:::BEGIN
/1 == 2/
{
	@never = count();
}

dtrace:::BEGIN
{
	exit(0);
}
