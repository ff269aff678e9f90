#pragma D option quiet

dtrace:::BEGIN
{
	@ = sum(10);
	@ = sum(-3);
	@ = sum(25);
	exit(0);
}
