BEGIN
{
  x = 09;
}
