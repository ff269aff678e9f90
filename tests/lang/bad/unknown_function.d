BEGIN
{
  frobnicate(1);
}
