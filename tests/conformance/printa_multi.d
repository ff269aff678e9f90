#pragma D option quiet

dtrace:::BEGIN
{
	@c[1] = count();
	@c[2] = count();
	@c[2] = count();
	@s[1] = sum(100);
	@s[3] = sum(7);
	exit(0);
}

dtrace:::END
{
	printa("%d %@d %@d\n", @c, @s);
}
