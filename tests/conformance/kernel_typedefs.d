/*
 * A kernel typedef's name is a type name, as in DTrace, where C could read one: in declarations,
 * casts, sizeof and struct members. A word the script uses as a variable stays a variable even where
 * the kernel has a typedef of that name (code, config).
 */
#pragma D option quiet
loff_t last;
struct sample {
	__u8 small;
	__s16 signed_small;
	atomic_t hits;
};
struct sample s;
inline int offset_bytes = sizeof(loff_t) + sizeof(__u8);

BEGIN
{
	printf("%d %d %d %d\n", sizeof(loff_t), sizeof(__u8), sizeof(atomic_t), sizeof(struct sample));
	printf("%d %d\n", (__u8)300, (__s16)0x18000);
	last = (loff_t)-5;
	s.small = 511;
	s.signed_small = -2;
	s.hits.counter = 7;
	printf("%d %d %d %d\n", last, s.small, s.signed_small, s.hits.counter);
	code = 3;
	config = 4;
	printf("%d %d\n", (code) + config, offset_bytes);
	exit(0);
}
