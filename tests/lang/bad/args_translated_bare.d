sched:::wakeup
{
  trace(args[0]);
}
