#pragma D option quiet

dtrace:::BEGIN
{
	printf("[%*d] [%-*d] [%.*s]\n", 6, 42, 6, 42, 3, "abcdef");
	exit(0);
}
