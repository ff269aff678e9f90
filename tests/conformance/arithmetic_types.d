#pragma D option quiet

/*
 * C's integer semantics: stores into narrow variables truncate, signed division and modulo
 * round toward zero, the operands of + are evaluated left first, a constant shift past 32 bits
 * keeps its operand's type (printf records an int's 32 bits; an aggregation takes the 64-bit
 * value), quantize/lquantize take negative values, and narrow aggregation keys print with their
 * type's signedness.
 */
char c;
short s;
unsigned char uc;

dtrace:::BEGIN
{
	c = 300;
	s = 70000;
	uc = -1;
	printf("%d %d %d\n", c, s, uc);
	c = 127;
	c++;
	uc += 2;
	printf("%d %d\n", c, uc);

	x = -7;
	y = 2;
	printf("%d %d %d %d\n", x / y, x % y, 7 / -y, -x % -y);

	i = 0;
	printf("%d %d\n", i++ + ++i, i);
	/* A compound assignment reads its target (and the target's keys) before its operand. */
	x = 1;
	x += x++;
	self->s = 5;
	self->s *= self->s++;
	k = 2;
	a[k] = 3;
	a[k] += k++;
	printf("%d %d %d %d %d\n", x, self->s, a[2], a[3], k);
	printf("%d %d %d %d\n", 1 << 40, -1 << 63, sizeof (1 << 40), (long long)1 << 40);

	@q = quantize(-5);
	@q = quantize(3);
	@l = lquantize(-3, -10, 10, 5);
	@k[(char)-1] = count();
	@k[(char)1] = count();
	@k[(char)1] = count();
	@u[(unsigned char)255] = count();
	@s = quantize(-1 << 40);
	exit(0);
}
