#pragma D option quiet

/*
 * To arithmetic a string is a pointer to its characters, as in DTrace: s + n (and n + s) is the
 * text from its n-th character on, s - n steps back; s + strlen(s) is the empty string.
 */
dtrace:::BEGIN
{
	s = "hello";
	printf("%s|%s|%s|%s|\n", s + 1, 2 + s, s + 5, (s + 3) - 1);
	t = s + 3;
	printf("%s %d %d\n", t, strlen(s + 1), (s + 1) == "ello");
	exit(0);
}
