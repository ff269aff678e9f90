syscall::read:entry
{
  self->ts = timestamp;
}

syscall::read:return
/self->ts/
{
  @ = quantize(timestamp - self->ts);
  self->ts = 0;
}
