#pragma D option quiet

/*
 * if/else in a clause body: blocks, single statements, nesting, an else-if chain, and
 * statements after the if that run whichever branch was taken.
 */
int i;

dtrace:::BEGIN
{
	x = 3;
	if (x > 2) {
		printf("big");
		y = 1;
	} else {
		printf("small");
		y = 2;
	}
	printf(" y=%d\n", y);

	if (x == 1)
		printf("one\n");
	else if (x == 2)
		printf("two\n");
	else if (x == 3)
		printf("three\n");
	else
		printf("many\n");

	if (x < 0) printf("negative\n");
	printf("after\n");

	if (x) {
		if (y == 1) {
			printf("nested %d\n", x);
			x = 0;
		}
		printf("x is now %d\n", x);
	}
	if (x)
		printf("not reached\n");
	else {
		@n = count();
		i++;
	}
	printf("i=%d\n", i);
}

dtrace:::BEGIN
/i == 1/
{
	if (i++ == 1)
		printf("once i=%d\n", i);
	exit(0);
}
