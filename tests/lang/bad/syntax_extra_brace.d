sched:::on-cpu
{
  self->ts = timestamp;
}
}
