BEGIN
{
  self->task = 1;
  self->task = (int *)alloca(4);
}
