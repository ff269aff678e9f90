BEGIN
{
	this->p.x = 1;
}
