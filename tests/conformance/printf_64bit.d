#pragma D option quiet

dtrace:::BEGIN
{
	printf("%d %d %x %x\n", 1099511627776, -1, -1, 255);
	exit(0);
}
