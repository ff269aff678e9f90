BEGIN
{
  x = '';
}
