BEGIN
{
  x = 1Z
