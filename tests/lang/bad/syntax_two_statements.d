BEGIN
{
  x = 1 y = 2;
}
