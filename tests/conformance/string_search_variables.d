/*
 * index(), rindex() and strstr() on strings held in variables: each position of the text is
 * tried in turn (forwards for index() and strstr(), every one for rindex(), keeping the last).
 * "hello world": "o" is at 4 and 7, "wor" at 6; rindex from 5 finds the "o" at 4; index from 5
 * finds the one at 7; a needle absent gives -1 and strstr() NULL. The needle may be a variable too.
 */
#pragma D option quiet

BEGIN
{
	s = "hello world";
	printf("%d %d %d %d %d\n", index(s, "o"), rindex(s, "o"), rindex(s, "o", 5), index(s, "o", 5),
	    index(s, "wor"));
	printf("%d [%s] %d\n", index(s, "xyz"), strstr(s, "wor"), strstr(s, "xyz") == NULL);
	t = "o";
	printf("%d %d [%s]\n", index(s, t), rindex(s, t), strstr(s, t));
	exit(0);
}
