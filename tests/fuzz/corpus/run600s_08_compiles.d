#pragma Doption switchratparsecs
BEGIN
{
}
