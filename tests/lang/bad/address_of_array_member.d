BEGIN
{
	trace(&curthread->comm);
}
