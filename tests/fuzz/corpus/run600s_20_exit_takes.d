BEGIN*{
  exit();
}
