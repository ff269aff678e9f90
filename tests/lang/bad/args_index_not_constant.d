sched:::enqueue
{
  trace(args[cpu]->pr_lwpid);
}
