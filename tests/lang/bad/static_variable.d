/* D has no static storage class. */
static int counter;

BEGIN
{
	counter = 1;
}
