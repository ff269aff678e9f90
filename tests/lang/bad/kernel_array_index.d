/* A constant index past the end of a kernel array (task_struct's comm is char [16]). */
BEGIN
{
	trace(curthread->comm[16]);
}
