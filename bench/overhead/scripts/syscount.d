syscall::read:entry
{
  @ = count();
}
