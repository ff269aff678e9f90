proc:::ex*
{
  trace(args[0]);
}
