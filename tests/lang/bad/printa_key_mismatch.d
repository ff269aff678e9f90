BEGIN
{
  @a[pid] = count();
}

END
{
  printa("%s %@d\n", @a);
}
