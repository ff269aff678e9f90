struct a { int x; };
struct a p;

BEGIN
{
	trace(&p.x);
}
