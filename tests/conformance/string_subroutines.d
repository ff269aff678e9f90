#pragma D option quiet

BEGIN
{
	printf("[%s] [%s] [%s] [%s]\n", strjoin("abc", "def"), substr("hello world", 6),
	    substr("hello", -3, 2), substr("hello", 1, 3));
	printf("[%s] [%s] [%s]\n", strchr("a/b/c", '/'), strrchr("a/b/c", '/'), strstr("hello world", "o w"));
	printf("[%s] [%s] [%s] [%s] [%s]\n", basename("/usr/lib/x.so"), dirname("/usr/lib/x.so"),
	    dirname("x"), dirname("/x"), basename("x"));
	printf("[%s] [%s] [%s] [%s] [%s] [%s]\n", lltostr(12345), lltostr(-42), lltostr(255, 16),
	    lltostr(0), lltostr(8, 8), lltostr(5, 2));
	printf("%d %d %d\n", strlen(strjoin("ab", "cde")), strlen(""), strlen(lltostr(1000000)));
	exit(0);
}
