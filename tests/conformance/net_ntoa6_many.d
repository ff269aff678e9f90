/*
 * Sixteen IPv6 addresses formatted in one clause by inet_ntoa6() and inet_ntop(), as DTrace for
 * Linux writes them: the first of the longest runs of two or more zero groups becomes "::" (a
 * lone zero group stays "0"); an IPv4-mapped or -compatible address is written as the IPv4
 * address alone, by both. The run is found without branches, so the clause stays within what
 * the verifier takes. The groups are stored in network byte order.
 */
#pragma D option quiet

BEGIN
{
	this->a = (uint16_t *)alloca(16);
	this->a[0] = 0x0120; this->a[1] = 0xb80d; this->a[2] = 0x0000; this->a[3] = 0x0000;
	this->a[4] = 0x0100; this->a[5] = 0x0000; this->a[6] = 0x0000; this->a[7] = 0x0100;
	printf("%s %s\n", inet_ntoa6((in6_addr_t *)this->a), inet_ntop(AF_INET6, (void *)this->a));
	this->a[0] = 0x0000; this->a[1] = 0x0000; this->a[4] = 0x0000; this->a[7] = 0x0000;
	printf("%s %s\n", inet_ntoa6((in6_addr_t *)this->a), inet_ntop(AF_INET6, (void *)this->a));
	this->a[7] = 0x0100;
	printf("%s %s\n", inet_ntoa6((in6_addr_t *)this->a), inet_ntop(AF_INET6, (void *)this->a));
	this->a[0] = 0x0100; this->a[7] = 0x0000;
	printf("%s %s\n", inet_ntoa6((in6_addr_t *)this->a), inet_ntop(AF_INET6, (void *)this->a));
	this->a[2] = 0x0200; this->a[4] = 0x0300; this->a[6] = 0x0400;
	printf("%s %s\n", inet_ntoa6((in6_addr_t *)this->a), inet_ntop(AF_INET6, (void *)this->a));
	this->a[1] = 0xcdab; this->a[3] = 0x1000; this->a[5] = 0x0001; this->a[7] = 0x0f00;
	printf("%s %s\n", inet_ntoa6((in6_addr_t *)this->a), inet_ntop(AF_INET6, (void *)this->a));
	this->a[0] = 0x0000; this->a[1] = 0x0000; this->a[2] = 0x0000; this->a[3] = 0x0000;
	this->a[4] = 0x0000; this->a[5] = 0xffff; this->a[6] = 0x000a; this->a[7] = 0x0101;
	printf("%s %s\n", inet_ntoa6((in6_addr_t *)this->a), inet_ntop(AF_INET6, (void *)this->a));
	this->a[1] = 0x0100; this->a[2] = 0x0100; this->a[4] = 0x0100; this->a[5] = 0x0000;
	this->a[6] = 0x0000;
	printf("%s %s\n", inet_ntoa6((in6_addr_t *)this->a), inet_ntop(AF_INET6, (void *)this->a));
	this->a[0] = 0x80fe; this->a[1] = 0x0000; this->a[2] = 0x0000; this->a[4] = 0x0202;
	this->a[5] = 0xffb3; this->a[6] = 0x1efe; this->a[7] = 0x2983;
	printf("%s %s\n", inet_ntoa6((in6_addr_t *)this->a), inet_ntop(AF_INET6, (void *)this->a));
	this->a[0] = 0x0000; this->a[2] = 0x0100; this->a[4] = 0x0000; this->a[5] = 0x0000;
	this->a[6] = 0x0100; this->a[7] = 0x0000;
	printf("%s %s\n", inet_ntoa6((in6_addr_t *)this->a), inet_ntop(AF_INET6, (void *)this->a));
	this->a[0] = 0x0100; this->a[2] = 0x0000; this->a[3] = 0x0100; this->a[7] = 0x0100;
	printf("%s %s\n", inet_ntoa6((in6_addr_t *)this->a), inet_ntop(AF_INET6, (void *)this->a));
	this->a[0] = 0x0000; this->a[3] = 0x0000; this->a[6] = 0xa8c0;
	printf("%s %s\n", inet_ntoa6((in6_addr_t *)this->a), inet_ntop(AF_INET6, (void *)this->a));
	this->a[0] = 0xffff; this->a[1] = 0xffff; this->a[2] = 0xffff; this->a[3] = 0xffff;
	this->a[4] = 0xffff; this->a[5] = 0xffff; this->a[6] = 0xffff; this->a[7] = 0xffff;
	printf("%s %s\n", inet_ntoa6((in6_addr_t *)this->a), inet_ntop(AF_INET6, (void *)this->a));
	this->a[0] = 0x0000; this->a[2] = 0x0000; this->a[3] = 0x0000; this->a[4] = 0x0000;
	this->a[5] = 0x0000; this->a[6] = 0x0000; this->a[7] = 0x0000;
	printf("%s %s\n", inet_ntoa6((in6_addr_t *)this->a), inet_ntop(AF_INET6, (void *)this->a));
	this->a[0] = 0x0010; this->a[1] = 0x0002; this->a[2] = 0x3000; this->a[3] = 0x0400;
	printf("%s %s\n", inet_ntoa6((in6_addr_t *)this->a), inet_ntop(AF_INET6, (void *)this->a));
	this->a[0] = 0x0000; this->a[1] = 0x0000; this->a[2] = 0x0000; this->a[3] = 0x0000;
	this->a[5] = 0xfeff; this->a[6] = 0x000a; this->a[7] = 0x0101;
	printf("%s %s\n", inet_ntoa6((in6_addr_t *)this->a), inet_ntop(AF_INET6, (void *)this->a));
	exit(0);
}
