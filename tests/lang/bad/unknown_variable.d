BEGIN
{
  trace(nosuch + 1);
}
