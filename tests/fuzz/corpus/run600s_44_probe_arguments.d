sched:::on-cpu
{
  trace(args[0]-->pr_pid);
}
