BEGIN
{
  trace(curlwpsinfo->pr_syscall);
}
