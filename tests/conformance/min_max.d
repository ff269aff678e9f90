#pragma D option quiet

dtrace:::BEGIN
{
	@lo = min(5);
	@lo = min(-2);
	@lo = min(9);
	@hi = max(5);
	@hi = max(-2);
	@hi = max(9);
	exit(0);
}
