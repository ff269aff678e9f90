BEGIN
{
  trace($2);
}
