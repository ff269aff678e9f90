BEGIN
{
  x = stringof(pid);
}
