#pragma D option quiet

dtrace:::BEGIN
{
	@ = lquantize(0, 0, 10, 1);
	@ = lquantize(0, 0, 10, 1);
	@ = lquantize(0, 0, 10, 1);
	@ = lquantize(1, 0, 10, 1);
	exit(0);
}
