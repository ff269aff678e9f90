/* An array dimension is a positive constant. */
int slots[0];

BEGIN
{
}
