/* An aggregation takes all its keys in one subscript. */
BEGIN
{
	@totals[1][2] = count();
}
