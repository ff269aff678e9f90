#pragma D option quiet

/*
 * Translated structs by value: xlate<T>(x), *curpsinfo and *p of an inline translated pointer
 * stored into this->, self-> and associative array elements, then read member by member; an
 * inline translated pointer read with ->; storing 0 deletes the element.
 */
struct pair {
	int lo;
	int hi;
};

translator struct pair < int x > {
	lo = x & 0xff;
	hi = x >> 8;
};

inline struct pair *split = xlate<struct pair *>(0x1234);

dtrace:::BEGIN
{
	this->p = xlate<struct pair>(0x0a0b);
	self->q = *split;
	printf("%x %x %x %x %x\n", this->p.lo, this->p.hi, split->lo, self->q.hi, (*split).lo);
	this->ps = *curpsinfo;
	printf("%d %d %d\n", this->ps.pr_pid == pid, this->ps.pr_ppid == ppid,
	    this->ps.pr_fname == execname);
	x[1] = xlate<psinfo_t>(curthread);
	printf("%d\n", x[1].pr_pid == pid);
	x[1] = 0;
	printf("%d\n", x[1].pr_pid);
	exit(0);
}
