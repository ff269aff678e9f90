int chipi_ta[5];

BEGIN
{
	a[5] = 1;
}
