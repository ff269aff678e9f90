BEGIN
{
  trace(((struct h_teer *)0)->x);
}
