inline psinfo_t *info = xlate<psinfo_t *>(curthread);

BEGIN
{
	trace(info);
}
