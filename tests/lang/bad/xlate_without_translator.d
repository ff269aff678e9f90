BEGIN
{
  trace(xlate<psinfo_t *>(pid)->pr_pid);
}
