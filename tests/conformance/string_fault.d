#pragma D option quiet

/*
 * Text read from an address that cannot be read is a fault (DTRACEFLT_BADADDR, 1), whether it is
 * recorded, stored or compared: the clause stops and ERROR fires with the address.
 */
dtrace:::BEGIN
{
	trace(stringof((char *)16));
	printf("not reached\n");
}

dtrace:::BEGIN
{
	s = stringof((char *)24);
}

dtrace:::BEGIN
{
	printf("%d\n", stringof(32) == "x");
}

dtrace:::BEGIN
{
	printf("kernel text still reads: %s\n", stringof(curthread->comm));
	exit(0);
}

dtrace:::ERROR
{
	printf("ERROR epid %d fault %d address %d\n", arg1, arg4, arg5);
}
