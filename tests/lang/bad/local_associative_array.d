this int counts[int];

BEGIN
{
	this->counts[1] = 2;
}
