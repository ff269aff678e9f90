/* Every aggregating function, keyed and not, with increments. */
sched:::on-cpu
{
	@c[cpu] = count();
	@s[execname] = sum(arg0);
	@a = avg(timestamp);
	@mn = min(pid);
	@mx = max(tid);
	@sd = stddev(arg1);
	@q[cpu, pid] = quantize(timestamp % 1000, 3);
	@l = lquantize(pid % 100, 0, 100, 10);
	@ll = llquantize(timestamp % 100000, 10, 0, 4, 10);
}
