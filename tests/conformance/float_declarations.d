#pragma D option quiet

/*
 * D declares floating-point objects, as C does, so that structs holding them have their C
 * layout; it does not compute with them. float is 4 bytes, double 8, long double 16 (aligned
 * to 16 on x86-64).
 */
float f;
double d;
long double ld;
struct sample {
	int count;
	double mean;
};
struct wide {
	char tag;
	long double value;
};
struct sample s;

dtrace:::BEGIN
{
	printf("%d %d %d %d %d %d\n", sizeof(f), sizeof(d), sizeof(ld), sizeof(struct sample),
	    offsetof(struct sample, mean), sizeof(s));
	printf("%d %d\n", sizeof(struct wide), offsetof(struct wide, value));
	exit(0);
}
