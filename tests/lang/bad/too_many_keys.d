/* A tuple has at most ten keys. */
BEGIN
{
	@[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] = count();
}
