#pragma D option quiet

/*
 * A string in a dynamic variable (self->, an associative array) is NULL until it is assigned
 * and again once 0 frees it, as in DTrace, so `self->path != NULL` tells whether an earlier
 * probe stored one; a global string starts as "". Recording a NULL string is a fault.
 */
syscall::getpid:entry
{
	self->path = "/tmp";
	paths[pid] = "/tmp";
	name = "global";
}

BEGIN
{
	printf("unset: %d %d %d %d\n", self->path == NULL, self->path != NULL, paths[pid] == NULL,
	    name == NULL);
	self->path = "/etc";
	paths[pid] = "/etc";
	printf("set: %d %d %s %s\n", self->path == NULL, paths[pid] == NULL, self->path, paths[pid]);
	self->path = 0;
	paths[pid] = 0;
	printf("freed: %d %d\n", self->path == NULL, paths[pid] == NULL);
}

BEGIN
/self->path != NULL/
{
	printf("not reached\n");
}

BEGIN
{
	printf("discarded\n");
	trace(self->path);
}

BEGIN
{
	exit(0);
}

ERROR
{
	printf("ERROR fault %d address %d\n", arg4, arg5);
}
