sched:::tick
{
  trace(args[3]);
}
