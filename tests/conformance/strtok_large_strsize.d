/*
 * strtok() at a large strsize, eight times in one clause: its scans run in bpf_loop() callbacks,
 * so the verifier's work does not grow with strsize (written out, a few calls at strsize=512 or
 * more exceeded what it takes).
 */
#pragma D option quiet
#pragma D option strsize=1024

BEGIN
{
	a = strtok("alpha,beta;gamma", ",;");
	b = strtok(NULL, ",;");
	c = strtok(NULL, ",;");
	d = strtok(NULL, ",;");
	e = strtok("  one two  ", " ");
	f = strtok(NULL, " ");
	g = strtok(NULL, " ");
	h = strtok(",,,", ",");
	printf("[%s] [%s] [%s] [%d]\n", a, b, c, d == NULL);
	printf("[%s] [%s] [%d] [%d]\n", e, f, g == NULL, h == NULL);
	exit(0);
}
