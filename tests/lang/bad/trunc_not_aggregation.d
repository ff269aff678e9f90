/* trunc() takes an aggregation first. */
BEGIN
{
	trunc(1);
}
