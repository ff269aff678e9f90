tcp:::state-change
{
  trace(args[3]->tcps_iss);
}
