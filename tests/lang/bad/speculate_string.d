BEGIN
{
  speculate(execname);
}
