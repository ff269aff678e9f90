#pragma D option quiet

/*
 * Memory a clause takes in scratch (alloca(), copyin()) and keeps a this-> pointer to stays valid
 * in the later clauses of the same firing, whatever they build in scratch themselves.
 */
BEGIN
{
	this->buf = (char *)alloca(8);
	bcopy(curthread->comm, this->buf, 7);
}

BEGIN
{
	this->joined = strjoin(strjoin("ab", "cd"), strjoin("ef", lltostr(12345)));
	printf("%s %s\n", this->joined, stringof(this->buf));
	exit(0);
}
