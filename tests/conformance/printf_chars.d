#pragma D option quiet

/*
 * Character conversions: %c prints the byte, %lc and %wc the wide character (the same for
 * ASCII), %C the character escaped as %S escapes a string (\n, and octal for what is not
 * printable).
 */
dtrace:::BEGIN
{
	printf("[%c][%lc][%wc][%3c][%-3c]\n", 'a', 66, 'C', 'd', 'e');
	printf("[%C][%C][%C][%C]\n", 'a', '\n', (char)200, '\\');
	exit(0);
}
