BEGIN
{
  x = (string)pid;
}
