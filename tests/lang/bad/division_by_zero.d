BEGIN
{
  x = 10 / (5 - 5);
}
