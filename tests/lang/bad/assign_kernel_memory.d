BEGIN
{
  curthread->pid = 3;
}
