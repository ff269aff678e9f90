#pragma D option quiet

dtrace:::BEGIN
{
	@["b"] = lquantize(3, 0, 5, 1);
	@["a"] = lquantize(2, 0, 5, 1);
	@["b"] = lquantize(3, 0, 5, 1);
	exit(0);
}
