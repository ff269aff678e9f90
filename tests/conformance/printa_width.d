#pragma D option quiet

dtrace:::BEGIN
{
	@["alpha"] = count();
	@["be"] = count();
	@["be"] = count();
	exit(0);
}

dtrace:::END
{
	printa("%-8s|%@4d|\n", @);
}
