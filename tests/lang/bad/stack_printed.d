profile-97
{
  printf("%k\n", stack());
}
