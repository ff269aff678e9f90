#pragma D option quiet

/*
 * print() names an enum's value by its enumerator, as DTrace does; a value no enumerator has
 * prints in decimal. Enumerators carry their enum's type, and compute as ints elsewhere.
 */
enum color { RED, GREEN = 5, BLUE };

struct painted {
	enum color c;
	int n;
};

struct painted v;
enum color ec;

dtrace:::BEGIN
{
	ec = BLUE;
	v.c = GREEN;
	v.n = 2;
	print(ec);
	printf("\n");
	print(v);
	printf("\n");
	print(RED);
	printf("\n");
	print((enum color)7);
	printf("\n%d %d %d\n", ec, ec + 1, sizeof (ec));
	exit(0);
}
