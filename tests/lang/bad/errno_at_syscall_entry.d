syscall::read:entry
{
  trace(errno);
}
