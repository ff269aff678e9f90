int a[5];

BEGIN
{
	trace(a[-1]);
}
