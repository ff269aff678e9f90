profile-997
{
  @[cpu] = count();
}
