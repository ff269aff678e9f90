BEGIN
{
  @ = lquantize(1, 0, timestamp);
}
