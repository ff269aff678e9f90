#pragma D option quiet

dtrace:::BEGIN
{
	@ = llquantize(-3, 2, 0, 1, 2);
	@ = llquantize(7, 2, 0, 1, 2);
	exit(0);
}
