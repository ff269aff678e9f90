#pragma D option quiet

dtrace:::BEGIN
{
	@["x"] = count();
	@["x"] = count();
	exit(0);
}

dtrace:::END
{
	printa(@);
}
