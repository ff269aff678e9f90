BEGIN
{
  @total = sum();
}
