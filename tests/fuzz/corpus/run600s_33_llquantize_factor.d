BEGIN
{
  @ = llquantize(~1, 1, 0, 6, 2&0);
}
