sched:::foo
{
  trace(1);
}
