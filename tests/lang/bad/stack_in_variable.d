BEGIN
{
  x = stack();
}
