sched:::off-cpu
{
  @[stack()] = count();
}
