/*
 * trace() of a struct or an array records its bytes. They print as a string when they read as
 * one (printable characters followed by nothing or by NULs only), otherwise as the hex dump
 * tracemem() prints: a heading of column offsets, then per 16 bytes the offset, the bytes and
 * their characters ('.' when not printable).
 */
#pragma D option quiet

struct pair {
	int a;
	char b;
};

struct word {
	char c[4];
};

struct pair p;
struct word w;
int numbers[3];

BEGIN
{
	p.a = 5;
	p.b = 'c';
	trace(p);
	printf("|\n");
	w.c[0] = 'a';
	w.c[1] = 'b';
	w.c[2] = 'c';
	w.c[3] = 'd';
	trace(w);
	printf("|\n");
	w.c[2] = 0;
	w.c[3] = 0;
	trace(w);
	printf("|\n");
	numbers[0] = 0x41;
	numbers[1] = 0x42;
	trace(numbers);
	printf("|\n");
	exit(0);
}
