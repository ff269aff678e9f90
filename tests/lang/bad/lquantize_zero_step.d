BEGIN
{
  @ = lquantize(1, 0, 100, 0);
}
