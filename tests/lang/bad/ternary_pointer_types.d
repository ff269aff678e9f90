/* The branches of ?: must have compatible types: pointers to one type, or a pointer and NULL. */
BEGIN
{
	p = arg0 ? (int *)arg0 : (char *)arg0;
}
