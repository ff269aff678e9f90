BEGIN
{
  @total = sum(execname);
}
