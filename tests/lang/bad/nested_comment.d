/* Comments do not nest. */
/* an outer /* and an inner */
BEGIN
{
}
