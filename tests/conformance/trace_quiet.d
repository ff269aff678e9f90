#pragma D option quiet

dtrace:::BEGIN
{
	trace("hello");
	trace(42);
	printf("\n");
	exit(0);
}
