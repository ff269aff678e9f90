struct a { int x; };
struct a p;

BEGIN
{
	p = 0;
}
