BEGIN
{
  trace(execname == 1);
}
