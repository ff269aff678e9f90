BEGIN
{
  x = 1;
