BEGIN
{
  x = 1.5;
}
