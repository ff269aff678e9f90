BEGIN
{
  x = execname + 1;
}
