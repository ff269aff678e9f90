/*
 * rand() is in DTrace's range, [0, 1771875): never negative, even kept in an int (32 draws, one
 * per tick).
 */
#pragma D option quiet

BEGIN
{
	bad = 0;
	draws = 0;
}

tick-1ms
/draws++ < 32/
{
	this->r = rand();
	bad += this->r < 0 || this->r >= 1771875;
}

tick-1ms
/draws > 32/
{
	printf("%d out of range\n", bad);
	exit(0);
}
