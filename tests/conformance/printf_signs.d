#pragma D option quiet

dtrace:::BEGIN
{
	printf("%+d %+d % d|%#x|%#o\n", 5, -5, 5, 255, 8);
	exit(0);
}
