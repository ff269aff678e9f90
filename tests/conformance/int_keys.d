#pragma D option quiet

dtrace:::BEGIN
{
	@[1] = sum(5);
	@[2] = sum(1);
	@[3] = sum(3);
	exit(0);
}
