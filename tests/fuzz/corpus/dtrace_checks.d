/* Multi-character constants, string casts, forward structs, predicates declaring, error paths. */
struct later;
struct later *p;
struct later { int a:3; int b; };
BEGIN
/seen == 0 && (string)curthread->comm != "" && 'ab' == 0x6162/
{
	seen = 1;
	this->buf = (char *)alloca(8);
	@h = llquantize(seen, 10, 0, 2, 20);
	@l = lquantize(seen, 0, 10, 2);
	printf("%c %d %s\n", *execname, sizeof ('abcde'), stringof(this->buf));
	exit(0);
}
