/* 64-bit arithmetic, declared char arrays and floats, kernel enums, commit after speculate. */
#
char name[8];
double mean;
struct sample { int count; long double sum; };
unsigned int a, b;
BEGIN
{
	a = 3;
	b = 5;
	@diff[a - b] = sum((a - b) * 0x7fffffff);
	name[0] = 'h';
	this->kind = (enum pid_type)1;
	printf("%C %lc %s %d %d\n", name[0], 'x', name, this->kind == PIDTYPE_TGID, sizeof(struct sample));
	spec = speculation();
}
BEGIN
{
	speculate(spec);
	printf("%d\n", (0x7fffffff + 1) < 0);
	commit(spec);
}
BEGIN { exit(0); }
