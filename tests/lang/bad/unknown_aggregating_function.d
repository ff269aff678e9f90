BEGIN
{
  @ = median(1);
}
