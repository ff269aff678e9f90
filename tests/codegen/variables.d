/* Globals, associative arrays (assigning 0 deletes), thread-locals and clause-locals. */
int total;
self int started;
uint64_t latency[pid_t];  /* declared, as its first use adds to it */

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
