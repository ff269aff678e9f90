BEGIN
{
  @a = count();
}

END
{
  @a = sum(
);1}
