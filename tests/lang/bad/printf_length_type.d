BEGIN
{
  printf("%ld\n", 1);
}
