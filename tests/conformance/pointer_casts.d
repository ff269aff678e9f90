/*
 * A kernel pointer becomes an integer through a cast: it can then be stored in an integer
 * variable, narrowed and computed with. 0 is also NULL for a pointer variable.
 */
#pragma D option quiet

self uintptr_t task;

BEGIN
{
	self->task = (uint64_t)curthread;
	printf("%d %d %d\n", self->task == (uintptr_t)curthread, (int)curthread == (int)self->task,
	    ((uint64_t)curthread - self->task) * 3 == 0);
	p = curthread;
	p = 0;
	printf("%d\n", p == NULL);
	exit(0);
}
