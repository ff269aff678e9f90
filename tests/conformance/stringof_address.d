/*
 * stringof() takes any scalar, as DTrace does: an integer is the kernel address of the text
 * (BEGIN's thread is named dsched).
 */
#pragma D option quiet

BEGIN
{
	this->address = (uintptr_t)&curthread->comm[0];
	printf("%s %s\n", stringof(this->address), stringof(this->address + 1));
	exit(0);
}
