BEGIN
{
  trace(((struct no_such_struct_here *)0)->x);
}
