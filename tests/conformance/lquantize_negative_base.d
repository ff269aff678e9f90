#pragma D option quiet

dtrace:::BEGIN
{
	@ = lquantize(-20, -10, 10, 5);
	@ = lquantize(-3, -10, 10, 5);
	exit(0);
}
