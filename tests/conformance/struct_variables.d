#pragma D option quiet

/*
 * Structs and unions held in D variables: globals, associative array values, self-> and
 * this->; members read and written with ., nested structs, copies of a whole struct, and
 * storing 0 into an associative array element, which deletes it (it reads as zeroes again); a
 * D struct read through a pointer into kernel memory, and copied from there.
 */
struct point {
	int x;
	int y;
};

struct shape {
	char kind;
	struct point origin;
	short corners[4];
	long area;
};

union word {
	int whole;
	char bytes[4];
};

struct point p;
struct shape s;
struct point pts[int];
self struct shape sh;
union word w;

dtrace:::BEGIN
{
	p.x = 1;
	p.y = -2;
	trace(p.x);
	printf(" %d\n", p.y);

	s.kind = 'T';
	s.origin.x = 10;
	s.origin = p;
	s.corners[2] = 70000;
	s.area = 1099511627776;
	printf("%c %d %d %d %d\n", s.kind, s.origin.x, s.origin.y, s.corners[2], s.area);

	pts[5] = p;
	pts[5].y = 7;
	pts[6].x = 3;
	printf("%d %d %d %d\n", pts[5].x, pts[5].y, pts[6].x, pts[7].y);
	pts[5] = 0;
	printf("%d %d\n", pts[5].x, pts[5].y);

	self->sh.origin.y = 4;
	self->sh.area = self->sh.origin.y * 2;
	printf("%d %d\n", self->sh.origin.y, self->sh.area);
	self->sh = 0;
	printf("%d\n", self->sh.area);

	this->q = p;
	this->q.x++;
	this->q.y += 10;
	printf("%d %d %d\n", this->q.x, this->q.y, p.x);

	w.whole = 0x41424344;
	printf("%c%c %d\n", w.bytes[0], w.bytes[3], sizeof (w));

	/* A D struct in kernel memory: task_struct's pid and tgid read as a struct point. */
	q = (struct point *)&curthread->pid;
	printf("%d %d\n", q->x == tid, q->y == pid);
	p = *q;
	printf("%d\n", p.y == pid);
	exit(0);
}
