/*
 * An array in kernel memory used as a value is the address of its first element, as in C:
 * tracemem() takes it as its address, arithmetic steps through it, a cast makes it an integer.
 * BEGIN runs in dsched's own thread, whose name is "dsched".
 */
#pragma D option quiet

BEGIN
{
	tracemem(curthread->comm, 8);
	printf("%s\n", stringof(curthread->comm + 2));
	printf("%d %d\n", (uintptr_t)curthread->comm == (uintptr_t)&curthread->comm[0],
	    curthread->comm + 4 - curthread->comm);
	exit(0);
}
