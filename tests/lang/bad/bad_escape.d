BEGIN
{
  trace("a\qb");
}
