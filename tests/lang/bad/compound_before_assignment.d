BEGIN
{
	total += 5;
}
