#pragma D option quiet

dtrace:::BEGIN
{
	n = 0;
}

profile:::tick-10ms
/n < 5/
{
	n++;
	@ticks = count();
}

profile:::tick-10ms
/n == 5/
{
	exit(0);
}
