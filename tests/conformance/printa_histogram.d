#pragma D option quiet

dtrace:::BEGIN
{
	@["k"] = lquantize(1, 0, 2, 1);
	exit(0);
}

dtrace:::END
{
	printa("key %s%@d\n", @);
}
