#pragma D option quiet

/*
 * A char array declared in D keeps its declared size (a string would have strsize bytes), its
 * elements can be assigned one by one, and it reads as text up to its first NUL. This works
 * for globals, thread-locals and clause-locals alike.
 */
char name[8];
self char initials[4];
this char code[3];
typedef char tag_t[6];
tag_t tag;

dtrace:::BEGIN
{
	printf("%d %d %d %d [%s]\n", sizeof(name), sizeof(self->initials), sizeof(this->code), sizeof(tag), name);
	name[0] = 'h';
	name[1] = 'i';
	self->initials[0] = 'd';
	self->initials[1] = 's';
	this->code[0] = 'x';
	tag[0] = 't';
	printf("[%s] [%s] [%s] [%s] %c\n", name, self->initials, this->code, tag, name[1]);
	exit(0);
}
