BEGIN
{
  x = 1 - execname;
}
