BEGIN
{
  @ = trace(1);
}
