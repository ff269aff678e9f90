/* A kernel symbol the kernel does not list. */
BEGIN
{
	trace(vmlinux`dsched_no_such_kernel_symbol);
}
