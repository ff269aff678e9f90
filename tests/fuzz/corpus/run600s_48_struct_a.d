struct e { int x; };
struct a p;

BEGIN
{
	p =$0;
}
