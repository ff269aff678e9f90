BEGIN
{
  x = 1;
  x = execname;
}
