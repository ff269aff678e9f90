/* A translation's members are values DTrace computes: they cannot be assigned. */
struct in_t { int a; };
struct out_t { int x; };
translator struct out_t < struct in_t *p > { x = p->a; };
struct in_t *p;

BEGIN
{
	xlate<struct out_t *>(p)->x = 5;
}
