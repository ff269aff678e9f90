BEGIN
{
exit0();
}
