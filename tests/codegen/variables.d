/* Globals, associative arrays (assigning 0 deletes), thread-locals and clause-locals. */
int total;
self int started;

sched:::wakeup
{
	self->woke = timestamp;
	total++;
	pending[args[0]->pr_lwpid] = 1;
}

sched:::on-cpu
/self->woke/
{
	this->wait = timestamp - self->woke;
	latency[pid] += this->wait;
	self->woke = 0;
	pending[tid] = 0;
}
