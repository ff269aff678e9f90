/* Speculative tracing: a buffer claimed, filled, committed or discarded. */
#pragma D option nspec=2

proc:::create
{
	self->spec = speculation();
	speculate(self->spec);
	printf("%d created %d\n", pid, args[0]->pr_pid);
}

proc:::exit
/self->spec && arg0 == 1/
{
	commit(self->spec);
	self->spec = 0;
}

proc:::exit
/self->spec/
{
	discard(self->spec);
	self->spec = 0;
}
