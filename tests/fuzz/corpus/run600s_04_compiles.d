BEGIN
{
  printf("d %d\n", 1);
}
