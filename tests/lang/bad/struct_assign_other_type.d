struct a { int x; };
struct b { int x; };
struct a p;
struct b q;

BEGIN
{
	q.x = 1;
	p = q;
}
