BEGIN
{
  trace(pid->x);
}
