/*
 * Stores through a pointer land in scratch memory the clause allocated with alloca(): members,
 * elements and dereferences, with C's truncation to the stored type (0x1ff in a uint8_t is 255)
 * and compound assignments reading the memory back. A store outside the clause's scratch is a
 * bad-address fault (DTRACEFLT_BADADDR, 1): the clause stops, ERROR fires, the next clause runs.
 */
#pragma D option quiet

struct point {
	int x;
	int y;
	char name[8];
};

BEGIN
{
	this->p = (struct point *)alloca(sizeof (struct point));
	this->p->x = 3;
	this->p->y = this->p->x * 2;
	this->p->x++;
	this->p->y += 10;
	this->p->name[0] = 'h';
	this->p->name[1] = 'i';
	printf("%d %d %s\n", this->p->x, this->p->y, stringof(this->p->name));
	this->b = (uint8_t *)alloca(4);
	this->b[3] = 0x1ff;
	*(this->b + 2) = 7;
	printf("%d %d %d\n", this->b[3], this->b[2], *this->b);
}

BEGIN
{
	this->w = (int *)alloca(8);
	this->w[2] = 1;
	printf("not reached\n");
}

ERROR
{
	printf("fault %d in clause %d\n", arg4, arg1);
}

BEGIN
{
	exit(0);
}
