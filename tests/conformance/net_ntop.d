#pragma D option quiet

/* inet_ntop() formats by address family (an unknown one gives ""), link_ntop() by link type.
 * BEGIN's thread name, "dsched" and ten NULs, serves as the address. */
BEGIN
{
	printf("[%s] [%s]\n", inet_ntop(AF_INET6, &curthread->comm), inet_ntop(99, &curthread->comm));
	printf("[%s]\n", link_ntop(ARPHRD_ETHER, &curthread->comm));
	exit(0);
}
