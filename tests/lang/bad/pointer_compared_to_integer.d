/* A pointer compares with a pointer to the same type, or with 0; not with any integer. */
BEGIN
{
	x = curthread == 1;
}
