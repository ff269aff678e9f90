/* An inline takes no other storage class. */
inline self int depth = 1;

BEGIN
{
}
