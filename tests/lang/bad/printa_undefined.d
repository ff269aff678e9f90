END
{
  printa(@nosuch);
}
