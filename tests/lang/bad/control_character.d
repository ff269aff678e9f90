BEGIN
{
  x = ;
}
