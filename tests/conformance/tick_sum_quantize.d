#pragma D option quiet

dtrace:::BEGIN
{
	n = 0;
}

profile:::tick-10ms
/n < 4/
{
	n++;
	@s = sum(n);
	@q = quantize(n);
}

profile:::tick-10ms
/n == 4/
{
	exit(0);
}
