BEGIN
{
  x = ;
}
