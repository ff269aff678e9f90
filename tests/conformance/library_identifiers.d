#pragma D option quiet

/* The D library's names: errno values, signals, socket constants, fault codes, NULL and the
 * networking types, with the values the Linux kernel uses. */
BEGIN
{
	printf("%d %d %d %d %d\n", EPERM, ENOENT, EINTR, EAGAIN, EACCES);
	printf("%d %d %d %d %d\n", SIGHUP, SIGKILL, SIGSEGV, SIGTERM, SIGCHLD);
	printf("%d %d %d %d\n", CLD_EXITED, CLD_KILLED, CLD_DUMPED, CLD_CONTINUED);
	printf("%d %d %d %d %d\n", AF_UNIX, AF_INET, AF_INET6, SOCK_STREAM, SOCK_DGRAM);
	printf("%d %d %d %d\n", IPPROTO_TCP, IPPROTO_UDP, ARPHRD_ETHER, ARPHRD_INFINIBAND);
	printf("%d %d %d %d\n", DTRACEFLT_UNKNOWN, DTRACEFLT_BADADDR, DTRACEFLT_DIVZERO, DTRACEFLT_LIBRARY);
	printf("%d %d %d\n", sizeof (ipaddr_t), sizeof (in6_addr_t), NULL == 0);
	self->p = NULL;
	printf("%d\n", self->p == NULL);
	exit(0);
}
