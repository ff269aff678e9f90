BEGIN
{
  printf("%hhd\n", 1);
}
