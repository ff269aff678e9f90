#pragma D option quiet

dtrace:::BEGIN
{
	@[1, "x"] = count();
	@[2, "a"] = count();
	@[1, "x"] = count();
	exit(0);
}
