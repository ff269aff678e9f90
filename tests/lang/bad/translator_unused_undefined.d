/* A translator is checked where it is declared, even when no clause uses it. */
struct in_t { int a; };
struct out_t { int x; };
translator struct out_t < struct in_t *p > { x = p->a + nosuch; };

BEGIN
{
}
