syscall::read:entry
{
  trace(args[6]);
}
