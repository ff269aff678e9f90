#pragma D option quiet

dtrace:::BEGIN
{
	@ = quantize(1, 3000);
	@ = quantize(2, 1000);
	exit(0);
}

dtrace:::END
{
	normalize(@, 1000);
}
