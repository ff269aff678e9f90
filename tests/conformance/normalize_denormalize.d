#pragma D option quiet

dtrace:::BEGIN
{
	@ = sum(5000);
	exit(0);
}

dtrace:::END
{
	normalize(@, 1000);
	printa(@);
	denormalize(@);
	printa(@);
}
