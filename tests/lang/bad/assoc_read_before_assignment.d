/* Clauses are checked in program order: the read comes before the assignment. */
BEGIN
{
	trace(last[1]);
}

END
{
	last[1] = 2;
}
