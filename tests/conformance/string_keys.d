#pragma D option quiet

dtrace:::BEGIN
{
	@["b"] = count();
	@["a"] = count();
	@["c"] = count();
	@["b"] = count();
	@["a"] = count();
	exit(0);
}
