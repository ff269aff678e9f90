int a[5];

BEGIN
{
	a[4] = 1;
}
