BEGIN
{
  printf(execname);
}
