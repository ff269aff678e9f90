sched:::remain-cpu
{
  trace(cpu);
}
