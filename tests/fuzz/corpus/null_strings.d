/* NULL strings: searches that find nothing, dynamic variables before and after they hold text. */
syscall::getpid:entry { self->p = "/tmp"; a[tid] = "x"; }
BEGIN
/strstr("abc", "b") != NULL && strchr("abc", 'z') == NULL/
{
	this->s = strrchr("a/b", '/');
	printf("%s %d %d %d\n", this->s, self->p == NULL, a[tid] == NULL, curpsinfo->pr_zoneid);
	self->p = 0;
	a[tid] = 0;
	printf("%T %d\n", walltimestamp, $projid + $taskid);
	exit(0);
}
