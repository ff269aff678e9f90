#pragma D option frobnicate=1
BEGIN
{
}
