#pragma D option quiet

/*
 * Scalar arrays in D variables: declared bounds, elements read and written with constant and
 * computed indexes, thread-local and clause-local arrays. An index outside the bounds at run
 * time is a fault: that clause stops and the next one runs.
 */
int a[5];
self int t[3];
this int b[2];

dtrace:::BEGIN
{
	a[1] = 2;
	a[4] = a[1] * 10;
	i = 3;
	a[i] = -1;
	a[i - 3]++;
	printf("%d %d %d %d %d %d\n", a[0], a[1], a[2], a[3], a[4], sizeof (a));
	this->b[0] = 9;
	this->b[1] = a[1] + this->b[0];
	printf("%d %d\n", this->b[1], a[0]);
	self->t[2] = 5;
	printf("%d %d\n", self->t[2], self->t[0]);
}

dtrace:::BEGIN
{
	i = 5;
	a[i] = 1;
	printf("not reached\n");
}

dtrace:::BEGIN
{
	printf("%d\n", a[4]);
	exit(0);
}

/* DTRACEFLT_BADINDEX, with the index. */
dtrace:::ERROR
{
	printf("fault %d index %d\n", arg4 == DTRACEFLT_BADINDEX, arg5);
}
