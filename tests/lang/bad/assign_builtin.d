BEGIN
{
  pid = 3;
}
