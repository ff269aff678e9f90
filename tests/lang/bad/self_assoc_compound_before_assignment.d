BEGIN
{
	self->bytes[1] -= 1;
}
