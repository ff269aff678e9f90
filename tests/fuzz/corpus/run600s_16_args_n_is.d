sched:::enqueue,
proc:::exit
{
  trace(args[1]->pr_lwpid);
}
