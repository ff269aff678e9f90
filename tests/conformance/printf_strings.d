#pragma D option quiet

dtrace:::BEGIN
{
	printf("[%s] [%10s] [%-10s] [%.2s] [%c]\n", "abc", "abc", "abc", "abc", 65);
	exit(0);
}
