syscall::nosuchcall:entry
{
  trace(arg0);
}
