tcp:::send
{
  trace(args[5]->tcps_state);
}
