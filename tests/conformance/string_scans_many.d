/*
 * Twelve lines of string comparisons and searches in one clause, at a strsize whose scans the
 * compiler may write out: the first two are, the rest run in bpf_loop() callbacks, and the clause
 * stays within what the verifier takes. Each result is what the C library gives for the same text.
 */
#pragma D option quiet
#pragma D option strsize=64
BEGIN
{
	a = "bcaacabcacaaabbaaacb"; b = "bcaa";
	printf("%d %d %d %d %s|%s|%s|%s %d %d %s\n", a == b, a < b, a > b, b < a, strchr(a, 'a'), strrchr(a, 'a'), toupper(a), strstr(a, b), index(a, b), rindex(a, b), tolower(toupper(b)));
	a = "baaacabbacacbccaacccabaccacacabccbbb"; b = "baaacabbacacbccaacccabaccacacbbaacaacbcbb";
	printf("%d %d %d %d %s|%s|%s|%s %d %d %s\n", a == b, a < b, a > b, b < a, strchr(a, 'z'), strrchr(a, 'z'), toupper(a), strstr(a, b), index(a, b), rindex(a, b), tolower(toupper(b)));
	a = "aacbababbacaccbbcb"; b = "aacbababbacaccbcbaabbccaacc";
	printf("%d %d %d %d %s|%s|%s|%s %d %d %s\n", a == b, a < b, a > b, b < a, strchr(a, 'c'), strrchr(a, 'c'), toupper(a), strstr(a, b), index(a, b), rindex(a, b), tolower(toupper(b)));
	a = "cbbcbcbabbacabaabacabbbaabbcbabcbcbbcbaaa"; b = "cbbcbcbabbaaacaabcabbaa";
	printf("%d %d %d %d %s|%s|%s|%s %d %d %s\n", a == b, a < b, a > b, b < a, strchr(a, 'z'), strrchr(a, 'z'), toupper(a), strstr(a, b), index(a, b), rindex(a, b), tolower(toupper(b)));
	a = "ccbaccccccabccbbbbabcbaaaabaabcaaa"; b = "ccbaccccccabcaaa";
	printf("%d %d %d %d %s|%s|%s|%s %d %d %s\n", a == b, a < b, a > b, b < a, strchr(a, 'z'), strrchr(a, 'z'), toupper(a), strstr(a, b), index(a, b), rindex(a, b), tolower(toupper(b)));
	a = "bbcbbaabb"; b = "bbcbbaabbaaacbcbbcac";
	printf("%d %d %d %d %s|%s|%s|%s %d %d %s\n", a == b, a < b, a > b, b < a, strchr(a, 'a'), strrchr(a, 'a'), toupper(a), strstr(a, b), index(a, b), rindex(a, b), tolower(toupper(b)));
	a = "baccacbcacbcb"; b = "babacccbcacaa";
	printf("%d %d %d %d %s|%s|%s|%s %d %d %s\n", a == b, a < b, a > b, b < a, strchr(a, 'z'), strrchr(a, 'z'), toupper(a), strstr(a, b), index(a, b), rindex(a, b), tolower(toupper(b)));
	a = "acbbcaabbbaccbbcbbaaaabababccabcbcacabcababcbac"; b = "acbbcaabbbaccbbcbbaaaababbbca";
	printf("%d %d %d %d %s|%s|%s|%s %d %d %s\n", a == b, a < b, a > b, b < a, strchr(a, 'b'), strrchr(a, 'b'), toupper(a), strstr(a, b), index(a, b), rindex(a, b), tolower(toupper(b)));
	a = "aacbcaccbc"; b = "aacbcac";
	printf("%d %d %d %d %s|%s|%s|%s %d %d %s\n", a == b, a < b, a > b, b < a, strchr(a, 'b'), strrchr(a, 'b'), toupper(a), strstr(a, b), index(a, b), rindex(a, b), tolower(toupper(b)));
	a = "c"; b = "";
	printf("%d %d %d %d %s|%s|%s|%s %d %d %s\n", a == b, a < b, a > b, b < a, strchr(a, 'b'), strrchr(a, 'b'), toupper(a), strstr(a, b), index(a, b), rindex(a, b), tolower(toupper(b)));
	a = "aababcacbbcbaacbbcccbcacacc"; b = "baca";
	printf("%d %d %d %d %s|%s|%s|%s %d %d %s\n", a == b, a < b, a > b, b < a, strchr(a, 'b'), strrchr(a, 'b'), toupper(a), strstr(a, b), index(a, b), rindex(a, b), tolower(toupper(b)));
	a = "bccacabcccc"; b = "bccacabaca";
	printf("%d %d %d %d %s|%s|%s|%s %d %d %s\n", a == b, a < b, a > b, b < a, strchr(a, 'b'), strrchr(a, 'b'), toupper(a), strstr(a, b), index(a, b), rindex(a, b), tolower(toupper(b)));
	exit(0);
}
