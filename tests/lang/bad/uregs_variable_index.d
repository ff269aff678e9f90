BEGIN
{
	trace(uregs[arg0]);
}
