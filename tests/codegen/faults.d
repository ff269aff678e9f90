/* What can fault at run time: division, kernel and user memory reads. */
BEGIN
{
	x = 10;
	y = 0;
	printf("%d %d\n", x / y, x % y);
	trace(*(int *)x);
	trace(copyin(arg0, 8) != 0);
	exit(0);
}

ERROR
{
	printf("fault %d %d\n", arg4, arg5);
}
