#pragma D option quiet
#pragma D option strsize=8

/*
 * A string holds strsize characters: text of exactly strsize characters is kept whole, longer
 * text is cut there wherever it is stored, recorded, compared, measured or used as a key.
 * sizeof a string is strsize.
 */
BEGIN
{
	a = "12345678";
	b = "123456789abc";
	self->c = b;
	this->d = strjoin(a, "9");
	printf("%s|%s|%s|%s\n", a, b, self->c, this->d);
	printf("%d %d %d %d\n", strlen(a), strlen(b), strlen("123456789"), sizeof(a));
	printf("%d %d %d\n", a == b, "123456789" == "12345678x", a == "1234567");
	printf("%s|%s|%s\n", substr(b, 2), substr(b, 0, 8), strjoin("abcd", "efghij"));
	@[b] = count();
	@[a] = count();
	@[this->d] = count();
	names[b] = 1;
	printf("%d %d\n", names[a], names["12345678zz"]);
	trace(b);
	printf("\n");
	exit(0);
}
