sched:::on-cpu
{
  @[cpu] = count();
}
