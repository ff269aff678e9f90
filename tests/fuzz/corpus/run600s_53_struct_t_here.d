BEGIN
{
  trace(((struct t_here *)0)->x);
}
