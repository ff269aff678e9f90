#pragma D option quiet

/* A string is an array of char: s[i] is its byte i (0 past the end); sizeof a string literal
 * counts its NUL; a character constant is an int. */
BEGIN
{
	s = "hello";
	printf("%c%c %d %d\n", s[0], s[4], s[5], s[1] == 'e');
	printf("%d %d %d\n", sizeof ("hi"), sizeof ('c'), sizeof (""));
	exit(0);
}
