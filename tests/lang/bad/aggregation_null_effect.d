/* An aggregation named alone does nothing. */
BEGIN
{
	@totals = count();
	@totals;
}
