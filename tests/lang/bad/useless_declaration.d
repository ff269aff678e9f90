/* A declaration must declare a name (or a struct, union or enum). */
int;

BEGIN
{
}
