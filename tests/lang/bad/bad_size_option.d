#pragma D option bufsize=12q
BEGIN
{
}
