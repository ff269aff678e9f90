sched:::off-cpu
/self->ts/
{
  self->ts = 0;
}
