/* alloca()'s memory is laid out when the program is compiled: its size must be known then. */
BEGIN
{
	n = 16;
	this->p = alloca(n);
}
