#pragma D option quiet

dtrace:::BEGIN
{
	@ = llquantize(5, 10, 0, 2, 10);
	@ = llquantize(50, 10, 0, 2, 10);
	exit(0);
}
