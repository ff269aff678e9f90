sched:::wakeup
{
  trace(args[1]->pr_nosuch);
}
