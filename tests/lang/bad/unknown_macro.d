BEGIN
{
  trace($nosuch);
}
