#pragma D option quiet
#pragma D option rawbytes
#pragma D option strsize=16

/* rawbytes: trace() of a string prints the bytes recorded (strsize of them, the NUL padding
 * included) as tracemem()'s hex dump; integers print as before. */
BEGIN
{
	trace("dsched");
	trace(1);
	printf("\nend\n");
	exit(0);
}
