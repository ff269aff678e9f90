BEGIN
{
	this->p = (char *)alloca(24);
	bcopy(&curthread->comm[0], this->p, 16);
	bcopy(this->p, this->p + 8, 8);
	bcopy(arg0, this->p, this->n);
	trace(stringof(this->p));
	x = alloca(0);
}
