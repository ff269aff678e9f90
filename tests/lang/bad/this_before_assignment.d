BEGIN
{
  trace(this->len);
}
