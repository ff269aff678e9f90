BEGIN
{
  @ = lquantize(1, 1,0, 10, 5);
}
