BEGIN
{
  system("echo hi");
}
