BEGIN
{
	bcopy(&curthread->comm[0], "text", 4);
}
