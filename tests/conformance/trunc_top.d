#pragma D option quiet

dtrace:::BEGIN
{
	@[1] = sum(1);
	@[2] = sum(2);
	@[3] = sum(3);
	@[4] = sum(4);
	exit(0);
}

dtrace:::END
{
	trunc(@, 2);
}
