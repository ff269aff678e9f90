#pragma D option quiet

/*
 * A character constant of several characters packs their bytes, the first the most significant,
 * and is an int up to four characters, a long beyond. A cast to string reads the text at an
 * address, as stringof() does.
 */
BEGIN
{
	printf("%x %d\n", 'ab', sizeof ('ab'));
	printf("%x %d\n", 'abcd', sizeof ('abcd'));
	printf("%x %d\n", 'abcdefgh', sizeof ('abcdefgh'));
	printf("%d %d\n", 'a', '\377');
	printf("%s|%s\n", (string)(uintptr_t)&curthread->comm[0], (string)curthread->comm);
	/* A char array or a string dereferenced is its first character. */
	printf("%c%c%c\n", *curthread->comm, *execname, *(execname + 1));
	exit(0);
}
