/*
 * alloca(size) returns zeroed scratch memory aligned to 8 bytes, valid for the clause; bcopy()
 * copies bytes into it from a kernel address (BEGIN's thread name, curthread->comm, is "dsched"
 * and NULs). A destination that is not scratch memory the clause holds is a bad-address fault
 * (DTRACEFLT_BADADDR, 1) at the destination: the clause stops, ERROR fires, the next clause runs.
 */
#pragma D option quiet

BEGIN
{
	this->name = (char *)alloca(16);
	bcopy(&curthread->comm[0], this->name, 7);
	printf("%s %d\n", stringof(this->name), (uintptr_t)this->name % 8);
	this->word = (uint64_t *)alloca(8);
	printf("%d\n", *this->word);
	bcopy(&curthread->comm[1], this->name, 2);  /* "sc" over "ds" */
	printf("%s\n", stringof(this->name));
}

BEGIN
{
	this->small = (char *)alloca(4);
	bcopy(&curthread->comm[0], this->small, 5);
	printf("not reached\n");
}

BEGIN
{
	bcopy(&curthread->comm[0], (char *)&curthread->comm[0], 1);
	printf("not reached\n");
}

ERROR
{
	printf("fault %d in clause %d\n", arg4, arg1);
}

BEGIN
{
	exit(0);
}
