BEGIN
{
  @ = lquantize(1, 100, 10, 5);
}
