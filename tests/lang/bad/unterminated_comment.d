BEGIN
{
  /* never closed
  x = 1;
}
