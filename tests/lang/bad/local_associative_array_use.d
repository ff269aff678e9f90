BEGIN
{
	this->counts[1] = 2;
}
