/* A stack is void to DTrace: it has no size. */
BEGIN
{
	trace(sizeof(stack()));
}
