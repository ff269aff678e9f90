#pragma D option quiet

dtrace:::BEGIN
{
	@[1] = avg(100);
	@[1] = avg(0);
	@[2] = avg(30);
	exit(0);
}
