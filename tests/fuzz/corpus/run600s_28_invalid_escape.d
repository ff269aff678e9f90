BEGIN
{
  ptn(ifr"%d\æn"l 1, 2)~;
}
