#pragma D option quiet

dtrace:::BEGIN
{
	@[1] = sum(2000);
	@[2] = sum(5000);
	@[3] = sum(1000);
	exit(0);
}

dtrace:::END
{
	normalize(@, 1000);
	printa("%3d %@d\n", @);
}
