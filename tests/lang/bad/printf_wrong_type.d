BEGIN
{
  printf("%d\n", execname);
}
