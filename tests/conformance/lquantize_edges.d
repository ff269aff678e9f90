#pragma D option quiet

dtrace:::BEGIN
{
	@ = lquantize(-1, 0, 3, 1);
	@ = lquantize(5, 0, 3, 1);
	exit(0);
}
