BEGIN
{
  printf("%q\n", 1);
}
