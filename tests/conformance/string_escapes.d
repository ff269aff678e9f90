/*
 * Escapes as DTrace reads them: one it does not know stays as written (backslash and
 * character), \x without digits is 0, and an octal escape past 0377 keeps its low byte.
 */
#pragma D option quiet

BEGIN
{
	printf("[%s]\n", "a\qb");
	printf("[%s]\n", "\101\x42\?");
	printf("[%s]\n", "x\400y");
	printf("[%s]\n", "p\xq");
	exit(0);
}
