#pragma D option quiet
#pragma D option strsize=4096

/* At a large strsize every string function still loads: the scans run in bpf_loop() callbacks
 * and scratch memory past the per-CPU limit is an array with an element per CPU. */
BEGIN
{
	a = "/usr/lib/../share/./doc//dsched";
	b = strjoin(a, "/README");
	printf("%s\n%s %s\n", cleanpath(b), basename(b), dirname(b));
	printf("%d %d %s %s\n", index(b, "doc"), rindex(b, "/"), strchr(b, 'R'), strrchr(a, 'd'));
	printf("%s %s %s\n", strstr(b, "share"), toupper(basename(b)), tolower("MiXeD"));
	printf("%d %d %d\n", a == b, a < b, substr(b, 0, strlen(a)) == a);
	printf("%s|%s|%d\n", strtok(b, "/"), strtok(NULL, "/."), strlen(b));
	exit(0);
}
