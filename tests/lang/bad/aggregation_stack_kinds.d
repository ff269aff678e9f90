/* One aggregation keyed by a kernel stack in one statement and a user stack in another. */
syscall::getppid:entry
{
	@[stack()] = count();
	@[ustack()] = count();
}
