BEGIN
{
  printf("hello
);
}
