sched:::enqueue
{
  trace(args[2]->cpu_chip);
}
