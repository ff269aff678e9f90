BEGIN*{
  exit');
}
