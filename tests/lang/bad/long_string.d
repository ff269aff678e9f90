/* long modifies integer types only. */
long string name;

BEGIN
{
}
