/* A translator member of the wrong type is refused where it is declared. */
struct in_t { int a; };
struct out_t { string s; };
translator struct out_t < struct in_t *p > { s = p->a; };

BEGIN
{
}
