BEGIN
{
  printf("