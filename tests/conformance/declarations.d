#pragma D option quiet

/*
 * Declarations: bit-fields (in C's layout, sign-extended when signed, promoted to int),
 * typedefs of every kind, function prototypes, inlines of several types, and thread-local
 * associative arrays.
 */
struct flags {
	int low:3;
	unsigned int mid:4;
	int :0;
	char top:2;
};

typedef struct flags flags_t;
typedef int (*handler_t)(int);
typedef int vec_t[3];
typedef enum { RED, GREEN = 5, BLUE } color_t;
typedef union { int i; char c; } either_t;
typedef unsigned char byte_t;

int foo(int);
int bar(void);
extern int baz(const char *, ...);

flags_t f;
vec_t v;
self int last[int];

inline string greeting = "hi";
inline int limit = 3 * 4;
inline color_t favourite = BLUE;
inline byte_t big = 300;

dtrace:::BEGIN
{
	f.low = 7;
	f.mid = 15;
	f.top = 1;
	printf("%d %d %d %d\n", f.low, f.mid, f.top, sizeof (f));
	f.mid++;
	printf("%d %d %d %d\n", f.low + 1, f.mid, f.low, f.mid - 1);

	v[2] = limit;
	self->last[3] = 10;
	self->last[4] = self->last[3] + 1;
	printf("%d %d %d\n", v[2], self->last[3], self->last[4]);
	self->last[3] = 0;
	printf("%d %d\n", self->last[3], self->last[4]);

	printf("%s %d %d %d %d %d\n", greeting, favourite, GREEN, big, sizeof (handler_t),
	    sizeof (either_t));

	/*
	 * A thread-local associative array made by its first assignment, with a tuple key; an
	 * element never assigned is NULL.
	 */
	self->names["x", 2] = "hello";
	printf("%s|%d|\n", self->names["x", 2], self->names["y", 1] == NULL);
	exit(0);
}
