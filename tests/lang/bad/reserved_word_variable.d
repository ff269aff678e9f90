BEGIN
{
  probe = 1;
}
