/* A description naming a macro argument the script was not given. */
syscall::$1:entry
{
}
