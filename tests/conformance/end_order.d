#pragma D option quiet

dtrace:::BEGIN
{
	@z = count();
	@a = sum(5);
	exit(0);
}
