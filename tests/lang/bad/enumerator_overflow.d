/* Enumerators are ints. */
enum big { HUGE = 2147483648 };

BEGIN
{
}
