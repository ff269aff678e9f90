BEGIN
{
  p = (int *)arg0;
  p = (char *)arg1;
}
