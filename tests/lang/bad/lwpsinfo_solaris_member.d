BEGIN
{
  trace(curlwpsinfo->pr_wchan);
}
