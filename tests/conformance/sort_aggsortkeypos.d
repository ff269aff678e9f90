#pragma D option quiet
#pragma D option aggsortkey
#pragma D option aggsortkeypos=1

dtrace:::BEGIN
{
	@[1, 9] = count();
	@[2, 8] = count();
	@[3, 7] = count();
	exit(0);
}
