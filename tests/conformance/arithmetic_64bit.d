#pragma D option quiet

/*
 * D computes in 64-bit registers: the result of an operator is not narrowed to its C type.
 * A value narrows only where it is stored into a typed variable, recorded with its type's size
 * (trace, printf, an aggregation key) or cast. So the difference of two unsigned ints can be
 * negative in sum(), a product of ints can pass 2^32, and 0x7fffffff + 1 is not negative.
 */
unsigned int a, b;
int i, stored;

dtrace:::BEGIN
{
	a = 3;
	b = 5;
	@diff = sum(a - b);
	@low = min(a - b);
	i = 100000;
	@square = sum(i * i);
	printf("%d\n", (i * i) / 1000);
	printf("%u\n", (a - b) / 2);
	i = 0x7fffffff;
	printf("%d %d\n", (i + 1) < 0, (int)(i + 1) < 0);
	stored = i + 1;
	printf("%d\n", stored);
	@constant = sum(1024 * 1024 * 1024 * 4);
	printf("%d %d\n", (1 << 31) > 0, (0x7fffffff + 1) < 0);
	@key[a - b] = count();
	exit(0);
}
