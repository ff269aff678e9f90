#pragma D option quiet

/* The D library's names: errno values, signals, socket constants, fault codes, NULL and the
 * networking types, with the values the Linux kernel uses; TCP states and flags, and the lwp
 * flags, as DTrace for Linux numbers them. */
BEGIN
{
	printf("%d %d %d %d %d\n", EPERM, ENOENT, EINTR, EAGAIN, EACCES);
	printf("%d %d %d %d %d\n", SIGHUP, SIGKILL, SIGSEGV, SIGTERM, SIGCHLD);
	printf("%d %d %d %d\n", CLD_EXITED, CLD_KILLED, CLD_DUMPED, CLD_CONTINUED);
	printf("%d %d %d %d %d\n", AF_UNIX, AF_INET, AF_INET6, SOCK_STREAM, SOCK_DGRAM);
	printf("%d %d %d %d\n", IPPROTO_TCP, IPPROTO_UDP, ARPHRD_ETHER, ARPHRD_INFINIBAND);
	printf("%d %d %d %d\n", DTRACEFLT_UNKNOWN, DTRACEFLT_BADADDR, DTRACEFLT_DIVZERO, DTRACEFLT_LIBRARY);
	printf("%d %d %d\n", sizeof (ipaddr_t), sizeof (in6_addr_t), NULL == 0);
	printf("%d %d %d %d %d %d\n", TCP_STATE_IDLE, TCP_STATE_ESTABLISHED, TCP_STATE_SYN_SENT, TCP_STATE_CLOSED,
	    TCP_STATE_LISTEN, TCP_STATE_CLOSING);
	printf("%s %s\n", tcp_state_string[TCP_STATE_ESTABLISHED], tcp_state_string[7]);
	printf("%x %x %d %d\n", TH_PSH, TH_PUSH, NET_PROBE_OUTBOUND, NET_PROBE_INBOUND);
	printf("%x %x %x %x\n", PR_STOPPED, PR_ISTOP, PR_DSTOP, PR_IDLE);
	self->p = NULL;
	printf("%d\n", self->p == NULL);
	exit(0);
}
