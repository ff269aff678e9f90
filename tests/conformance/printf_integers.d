#pragma D option quiet

dtrace:::BEGIN
{
	printf("%d|%5d|%-5d|%05d|%x|%X|%o|%u\n", 42, 42, 42, 42, 255, 255, 8, 7);
	exit(0);
}
