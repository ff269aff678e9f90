#pragma D option quiet

/* tracemem() prints DTrace's hex dump: the column heading, then the offset, the bytes and their
 * text; with a count, only that many bytes; with 0 nothing. BEGIN's thread name is "dsched". */
BEGIN
{
	tracemem(&curthread->comm[0], 16);
	tracemem(&curthread->comm[0], 16, 6);
	tracemem(&curthread->comm[0], 16, 0);
	printf("end\n");
	exit(0);
}
