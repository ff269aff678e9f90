/*
 * Sixteen IPv6 addresses formatted in one clause, twice each pattern of zero groups RFC 5952 names:
 * the longest run of two or more zero groups becomes "::" (the first of equal runs), a single zero
 * group stays, and an IPv4-mapped address ends in dotted decimal. The zero run is found without
 * branches, so the clause stays within what the verifier takes.
 */
#pragma D option quiet

BEGIN
{
	this->a = (uint16_t *)alloca(16);
	this->a[0] = 0x0120; this->a[1] = 0xb80d; this->a[2] = 0; this->a[3] = 0;
	this->a[4] = 0x0100; this->a[5] = 0; this->a[6] = 0; this->a[7] = 0x0100;
	printf("%s\n", inet_ntoa6((in6_addr_t *)this->a));
	this->a[0] = 0; this->a[1] = 0; this->a[4] = 0; this->a[7] = 0;
	printf("%s\n", inet_ntoa6((in6_addr_t *)this->a));
	this->a[7] = 0x0100;
	printf("%s\n", inet_ntoa6((in6_addr_t *)this->a));
	this->a[0] = 0x0100; this->a[7] = 0;
	printf("%s\n", inet_ntoa6((in6_addr_t *)this->a));
	this->a[0] = 0x0100; this->a[1] = 0; this->a[2] = 0x0200; this->a[3] = 0;
	this->a[4] = 0x0300; this->a[5] = 0; this->a[6] = 0x0400; this->a[7] = 0;
	printf("%s\n", inet_ntoa6((in6_addr_t *)this->a));
	this->a[1] = 0xcdab; this->a[3] = 0x1000; this->a[5] = 0x0001; this->a[7] = 0x0f00;
	printf("%s\n", inet_ntoa6((in6_addr_t *)this->a));
	this->a[0] = 0; this->a[1] = 0; this->a[2] = 0; this->a[3] = 0;
	this->a[4] = 0; this->a[5] = 0xffff; this->a[6] = 0x000a; this->a[7] = 0x0101;
	printf("%s\n", inet_ntoa6((in6_addr_t *)this->a));
	this->a[1] = 0x0100; this->a[2] = 0x0100; this->a[4] = 0x0100; this->a[5] = 0; this->a[6] = 0;
	printf("%s\n", inet_ntoa6((in6_addr_t *)this->a));
	this->a[0] = 0x0120; this->a[1] = 0xb80d; this->a[2] = 0; this->a[3] = 0;
	this->a[4] = 0x0100; this->a[5] = 0; this->a[6] = 0; this->a[7] = 0x0100;
	printf("%s\n", inet_ntoa6((in6_addr_t *)this->a));
	this->a[0] = 0; this->a[1] = 0; this->a[4] = 0; this->a[7] = 0;
	printf("%s\n", inet_ntoa6((in6_addr_t *)this->a));
	this->a[7] = 0x0100;
	printf("%s\n", inet_ntoa6((in6_addr_t *)this->a));
	this->a[0] = 0x0100; this->a[7] = 0;
	printf("%s\n", inet_ntoa6((in6_addr_t *)this->a));
	this->a[0] = 0x0100; this->a[1] = 0; this->a[2] = 0x0200; this->a[3] = 0;
	this->a[4] = 0x0300; this->a[5] = 0; this->a[6] = 0x0400; this->a[7] = 0;
	printf("%s\n", inet_ntoa6((in6_addr_t *)this->a));
	this->a[1] = 0xcdab; this->a[3] = 0x1000; this->a[5] = 0x0001; this->a[7] = 0x0f00;
	printf("%s\n", inet_ntoa6((in6_addr_t *)this->a));
	this->a[0] = 0; this->a[1] = 0; this->a[2] = 0; this->a[3] = 0;
	this->a[4] = 0; this->a[5] = 0xffff; this->a[6] = 0x000a; this->a[7] = 0x0101;
	printf("%s\n", inet_ntoa6((in6_addr_t *)this->a));
	this->a[1] = 0x0100; this->a[2] = 0x0100; this->a[4] = 0x0100; this->a[5] = 0; this->a[6] = 0;
	printf("%s\n", inet_ntoa6((in6_addr_t *)this->a));
	exit(0);
}
