#pragma D option quiet

/*
 * A struct may be declared before it is defined: pointers to it can be made in between, and once
 * defined its variables and members are usable.
 */
struct point;
struct point *origin;

struct point {
	int x;
	int y;
};

struct point p;

BEGIN
{
	origin = (struct point *)0;
	p.x = 3;
	p.y = 4;
	printf("%d %d %d %d\n", p.x, p.y, sizeof (struct point), origin == NULL);
	exit(0);
}
