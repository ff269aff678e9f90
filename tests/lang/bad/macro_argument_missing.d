BEGIN
{
  trace($1);
}
