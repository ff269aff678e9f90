BEGIN
/execname/
{
}
