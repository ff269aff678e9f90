sched:::enqueue,
proc:::exit
{
  trace(args[0]->pr_lwpid);
}
