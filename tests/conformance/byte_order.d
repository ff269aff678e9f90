#pragma D option quiet

/* Host (little-endian) to network order and back, each at its width; the major and minor
 * numbers of a kernel device number (12 bits above 20). */
BEGIN
{
	printf("%x %x %x\n", htons(0x1234), htonl(0x12345678), htonll(0x0102030405060708));
	printf("%x %x %x\n", ntohs(0x3412), ntohl(0x78563412), ntohll(0x0807060504030201));
	printf("%d %d %d\n", htons(0x12345678), getmajor(0x800003), getminor(0x800003));
	exit(0);
}
