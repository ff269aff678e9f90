int a[5];

BEGIN
{
	a[5] = 1;
}
