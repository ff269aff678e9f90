ip:::receive
{
  trace(args[6]->ip_ver);
}
