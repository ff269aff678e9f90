/* D has no static storage class. */
static int hits;

BEGIN
{
	hits = 1;
}
