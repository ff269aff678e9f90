#pragma D option quiet

dtrace:::BEGIN
{
	printf("100%% done\tok\n");
	printf("%S\n", "a\tb");
	exit(0);
}
