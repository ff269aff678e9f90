/*
 * Structs, unions and arrays held in D variables, bit-fields, thread-local associative arrays,
 * and if/else lowered to predicated clauses (the clauses after the first test this-> guards). The
 * branches of ?: meet through an opaque value, so that LLVM does not merge a context load and a
 * map value load into one instruction, which the verifier refuses.
 */
struct sample {
	int low:3;
	unsigned int high:5;
	short counts[4];
	long total;
};

struct sample last;
struct sample by_cpu[int];
self struct sample mine;
self int seen[int];
int history[8];

profile:::tick-1s
{
	last.low = -1;
	last.counts[2]++;
	by_cpu[cpu] = last;
	by_cpu[cpu].total += last.high;
	last.total = arg0 > last.total ? arg0 : last.total;
	self->mine = by_cpu[cpu];
	self->seen[cpu] = 1;
	history[cpu & 7] = last.counts[2];
	if (last.total > 10) {
		trace(last.low);
		by_cpu[cpu] = 0;
	} else if (self->seen[cpu])
		trace(history[1]);
	else
		self->seen[cpu] = 0;
	trace(self->mine.total);
}
