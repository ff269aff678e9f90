#pragma D option quiet

dtrace:::BEGIN
{
	@ = lquantize(30, 0, 100, 25);
	@ = lquantize(60, 0, 100, 25);
	@ = lquantize(99, 0, 100, 25);
	exit(0);
}
