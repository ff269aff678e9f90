/* One option per #pragma D option. */
#pragma D option quiet flowindent

BEGIN
{
}
