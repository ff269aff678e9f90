BEGIN
{
  @a[pid] = count();
  @a[pid, tid] = count();
}
