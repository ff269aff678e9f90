#pragma D option quiet

/*
 * Kernel enums come from the kernel's BTF as kernel structs do: `enum pid_type` is a type, and
 * compared with a value of that type, an enumerator's name (PIDTYPE_TGID) is its value.
 */
dtrace:::BEGIN
{
	this->kind = (enum pid_type)1;
	printf("%d %d %d\n", sizeof(enum pid_type), this->kind == PIDTYPE_TGID, this->kind != PIDTYPE_PID);
	exit(0);
}
