BEGIN
{
  exit();
}
