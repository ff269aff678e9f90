#pragma D option quiet
#pragma D option aggsortrev

dtrace:::BEGIN
{
	@["a"] = count();
	@["b"] = count();
	exit(0);
}
