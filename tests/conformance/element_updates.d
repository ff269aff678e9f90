#pragma D option quiet

/*
 * ++, -- and compound assignments of associative-array elements and thread-locals: the value
 * before and after, an absent element read as 0 and created unless the result is 0, a result of
 * 0 deleting the element, and the truncation to the element's type. A predicate that reads an
 * element and a body that changes it see each other's values, also when the body stores into
 * the array first or uses another key. Keys may hold elements of other arrays. A fault in a
 * compound assignment (by a variable or a constant 0) leaves the element as it was.
 */
int a[int];
char small[int];
unsigned char tiny[int];
int q[int];
int x, y, zero;
self int t;
self int k[int, string];

dtrace:::BEGIN
{
	x = a[1]++;
	y = ++a[1];
	printf("%d %d %d\n", x, y, a[1]);
	x = a[2]--;
	printf("%d %d\n", x, a[2]);
	x = ++a[2];
	printf("%d %d\n", x, a[2]);
	a[3] += 10;
	a[3] -= 4;
	a[3] *= 3;
	x = (a[4] *= 7);
	printf("%d %d %d\n", a[3], a[4], x);
	self->t++;
	self->t += 41;
	self->k[1, "x"] += 2;
	self->k[1, "x"]--;
	printf("%d %d\n", self->t, self->k[1, "x"]);
	self->t -= 42;
	printf("%d\n", self->t);
	small[0] = 127;
	x = ++small[0];
	tiny[0]--;
	printf("%d %d %d\n", x, small[0], tiny[0]);
	small[0] += 128;
	printf("%d\n", small[0]);
}

dtrace:::BEGIN
{
	q[7] = 2;
}

dtrace:::BEGIN
/q[7]/
{
	q[7]--;
	printf("%d\n", q[7]);
}

dtrace:::BEGIN
/q[7]/
{
	printf("%d\n", q[7]--);
	printf("%d\n", q[7]);
}

dtrace:::BEGIN
/q[7]/
{
	printf("not reached\n");
}

dtrace:::BEGIN
/q[7] == 0/
{
	q[7] = 3;
	q[7]--;
	printf("%d\n", q[7]);
}

dtrace:::BEGIN
/q[7] > 1 && q[8] == 0/
{
	q[7] = 0;
	q[7]++;
	q[8]++;
	printf("%d %d\n", q[7], q[8]);
}

dtrace:::BEGIN
/q[7]/
{
	q[9] += q[7];
	q[7] += q[9];
	printf("%d %d\n", q[7], q[9]);
}

dtrace:::BEGIN
{
	n[1] = 2;
	n[2] = 3;
	m[n[1], n[n[1]]] = 5;
	m[2, 3]++;
	self->k[n[1], "y"] = 1;
	self->k[n[1], "y"] += m[n[1], n[2]];
	printf("%d %d %d %d\n", m[2, 3], m[n[1], n[n[1]]], self->k[2, "y"], n[n[n[1]] - 1]);
}

dtrace:::BEGIN
{
	a[5] = 1;
	a[5] /= zero;
	printf("not reached\n");
}

dtrace:::BEGIN
{
	a[5] %= zero;
	printf("not reached\n");
}

dtrace:::BEGIN
{
	printf("%d\n", a[5]);
	exit(0);
}
