#pragma D option quiet

/*
 * print() writes the type, a space and the value as DTrace does: integers and pointers in hex
 * with C's "%#x" (0 is "0"; a negative int shows its 32 bits), chars quoted, a string in double
 * quotes. A struct lists its members one per line, four spaces deeper per level, as
 * "type name = value"; a bit-field shows its width after the name; a char array holding text
 * shows it as a string in brackets, another char array its characters, other arrays their
 * elements; the outermost closing brace is not followed by a newline.
 */
struct inner {
	long long x;
	short y;
};

struct s {
	int a;
	char name[4];
	char raw[2];
	unsigned int flag : 3;
	unsigned int other : 5;
	struct inner in;
	char c;
	int arr[3];
	int *p;
};

struct s v;

dtrace:::BEGIN
{
	print(10);
	print(0);
	print(-1);
	print((char)65);
	print((char)0);
	print((unsigned char)200);
	print("hello");
	print((int *)16);

	v.a = 1;
	v.name[0] = 'a';
	v.name[1] = 'b';
	v.name[2] = 'c';
	v.raw[0] = 'h';
	v.raw[1] = 'i';
	v.flag = 5;
	v.in.y = -2;
	v.c = 'z';
	v.arr[0] = 1;
	v.arr[1] = 2;
	print(v);
	printf("\n");
	print(v.in);
	printf("|\n");
	exit(0);
}
