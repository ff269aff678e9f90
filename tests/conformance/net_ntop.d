#pragma D option quiet

/* inet_ntop() formats by address family, link_ntop() by link type. BEGIN's thread name, "dsched"
 * and ten NULs, serves as the address. Another address family is an illegal operation (fault 3),
 * as in DTrace. */
BEGIN
{
	printf("[%s] [%s]\n", inet_ntop(AF_INET6, &curthread->comm[0]), inet_ntop(AF_INET, &curthread->comm[0]));
	printf("[%s]\n", link_ntop(ARPHRD_ETHER, &curthread->comm[0]));
}

BEGIN
{
	trace(inet_ntop(99, &curthread->comm[0]));
}

ERROR
{
	printf("fault %d\n", arg4);
	exit(0);
}
