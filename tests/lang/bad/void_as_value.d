BEGIN
{
  x = exit(0);
}
