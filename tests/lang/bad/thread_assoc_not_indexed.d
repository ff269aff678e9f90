self int last[int];

BEGIN
{
	trace(self->last);
}
