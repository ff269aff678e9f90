#pragma D option quiet

dtrace:::BEGIN
{
	n = 0;
}

profile:::tick-10ms
/n < 3/
{
	n++;
	@[n] = sum(n * 10);
}

profile:::tick-10ms
/n == 3/
{
	exit(0);
}

dtrace:::END
{
	clear(@);
}
