#pragma D option quiet

/*
 * discard() records nothing: data recorded after it in the same clause prints as usual, and the
 * discarded speculation prints nothing.
 */
dtrace:::BEGIN
{
	s = speculation();
}

dtrace:::BEGIN
{
	speculate(s);
	printf("speculated\n");
}

dtrace:::BEGIN
{
	discard(s);
	printf("after discard\n");
}

dtrace:::BEGIN
{
	exit(0);
}
