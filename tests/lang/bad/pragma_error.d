/* #error (and #pragma error, #pragma D error) stops the compile with its words. */
#error this script needs "a newer kernel" 7
BEGIN
{
	exit(0);
}
