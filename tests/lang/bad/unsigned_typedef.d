/* unsigned modifies the integer types, not a typedef of one. */
unsigned uint32_t value;

BEGIN
{
}
