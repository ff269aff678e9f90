BEGIN
{
  @ = count(1);
}
