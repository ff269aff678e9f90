/* An aggregation is only assigned an aggregating function. */
BEGIN
{
	@totals = 1;
}
