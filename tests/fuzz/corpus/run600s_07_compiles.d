syscall::read:entry
{
  trace(args[3]);
}
