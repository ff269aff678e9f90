extern char __start_rodata;

BEGIN
{
	__start_rodata = 1;
}
