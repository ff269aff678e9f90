BEGIN
{
  @a[pid] = count();
  @b[execname] = count();
}

END
{
  printa(@a, @b);
}
