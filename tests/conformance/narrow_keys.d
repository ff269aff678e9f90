#pragma D option quiet

/*
 * Keys whose components are all integers of at most 4 bytes are packed in 4 bytes each; they
 * still print with their type's size and signedness, sort as unsigned on ties, and tell apart
 * (or merge) the values their type does. A key with an 8-byte component keeps 8 bytes for all.
 */
dtrace:::BEGIN
{
	@s[(short)-2, (unsigned short)65535] = sum(3);
	@pair[-5, 7] = count();
	@pair[-5, 7] = count();
	@pair[2, -1] = count();
	@pair[3, 0] = count();
	@wide[-5, (long long)-5] = count();
	x[(char)-1] = 7;
	y[(unsigned char)255, 1] = 9;
	printf("%d %d %d\n", x[(char)255], x[(char)-2], y[(unsigned char)-1, 1]);
	exit(0);
}
