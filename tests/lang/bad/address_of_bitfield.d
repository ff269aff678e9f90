/* A bit-field has no address. */
struct flags { int ready:1; };

BEGIN
{
	trace(&((struct flags *)arg0)->ready);
}
