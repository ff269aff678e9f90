/*
 * A user-space provider's declaration, as the .d file of a program with USDT probes holds it:
 * checked as DTrace checks it (a redeclaration must agree), and enabling nothing. Aggregations
 * named with keys where an action takes the whole aggregation: DTrace ignores the keys.
 */
#pragma D option quiet

provider app {
	probe request__start(int id, char *path) : (int id);
	probe request__done(int);
	probe request__path(char *path) : (string path);
	probe idle(void);
};

provider app {
	probe idle();
};

BEGIN
{
	@counts["a"] = count();
	@counts["b"] = count();
	@counts["b"] = count();
	printa("%s %@d\n", @counts["a"]);
	trunc(@counts[1], 1);
	printa("%s %@d\n", @counts);
	exit(0);
}
