int a[4];
int b[4];

BEGIN
{
	b < a;
}
