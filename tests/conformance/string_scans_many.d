/*
 * Twelve lines of string comparisons and searches in one clause, at a strsize whose scans the
 * compiler may write out: the first two are, the rest run in bpf_loop() callbacks, and the clause
 * stays within what the verifier takes. Each result is what the C library gives for the same text;
 * a search that finds nothing gives NULL, printed here as "".
 */
#pragma D option quiet
#pragma D option strsize=64
BEGIN
{
	a = "bcaacabcacaaabbaaacb"; b = "bcaa";
	this->first = strchr(a, 'a'); this->last = strrchr(a, 'a'); this->found = strstr(a, b);
	printf("%d %d %d %d %s|%s|%s|%s %d %d %s\n", a == b, a < b, a > b, b < a, this->first != NULL ? this->first : "",
	    this->last != NULL ? this->last : "", toupper(a), this->found != NULL ? this->found : "", index(a, b), rindex(a, b), tolower(toupper(b)));
	a = "baaacabbacacbccaacccabaccacacabccbbb"; b = "baaacabbacacbccaacccabaccacacbbaacaacbcbb";
	this->first = strchr(a, 'z'); this->last = strrchr(a, 'z'); this->found = strstr(a, b);
	printf("%d %d %d %d %s|%s|%s|%s %d %d %s\n", a == b, a < b, a > b, b < a, this->first != NULL ? this->first : "",
	    this->last != NULL ? this->last : "", toupper(a), this->found != NULL ? this->found : "", index(a, b), rindex(a, b), tolower(toupper(b)));
	a = "aacbababbacaccbbcb"; b = "aacbababbacaccbcbaabbccaacc";
	this->first = strchr(a, 'c'); this->last = strrchr(a, 'c'); this->found = strstr(a, b);
	printf("%d %d %d %d %s|%s|%s|%s %d %d %s\n", a == b, a < b, a > b, b < a, this->first != NULL ? this->first : "",
	    this->last != NULL ? this->last : "", toupper(a), this->found != NULL ? this->found : "", index(a, b), rindex(a, b), tolower(toupper(b)));
	a = "cbbcbcbabbacabaabacabbbaabbcbabcbcbbcbaaa"; b = "cbbcbcbabbaaacaabcabbaa";
	this->first = strchr(a, 'z'); this->last = strrchr(a, 'z'); this->found = strstr(a, b);
	printf("%d %d %d %d %s|%s|%s|%s %d %d %s\n", a == b, a < b, a > b, b < a, this->first != NULL ? this->first : "",
	    this->last != NULL ? this->last : "", toupper(a), this->found != NULL ? this->found : "", index(a, b), rindex(a, b), tolower(toupper(b)));
	a = "ccbaccccccabccbbbbabcbaaaabaabcaaa"; b = "ccbaccccccabcaaa";
	this->first = strchr(a, 'z'); this->last = strrchr(a, 'z'); this->found = strstr(a, b);
	printf("%d %d %d %d %s|%s|%s|%s %d %d %s\n", a == b, a < b, a > b, b < a, this->first != NULL ? this->first : "",
	    this->last != NULL ? this->last : "", toupper(a), this->found != NULL ? this->found : "", index(a, b), rindex(a, b), tolower(toupper(b)));
	a = "bbcbbaabb"; b = "bbcbbaabbaaacbcbbcac";
	this->first = strchr(a, 'a'); this->last = strrchr(a, 'a'); this->found = strstr(a, b);
	printf("%d %d %d %d %s|%s|%s|%s %d %d %s\n", a == b, a < b, a > b, b < a, this->first != NULL ? this->first : "",
	    this->last != NULL ? this->last : "", toupper(a), this->found != NULL ? this->found : "", index(a, b), rindex(a, b), tolower(toupper(b)));
	a = "baccacbcacbcb"; b = "babacccbcacaa";
	this->first = strchr(a, 'z'); this->last = strrchr(a, 'z'); this->found = strstr(a, b);
	printf("%d %d %d %d %s|%s|%s|%s %d %d %s\n", a == b, a < b, a > b, b < a, this->first != NULL ? this->first : "",
	    this->last != NULL ? this->last : "", toupper(a), this->found != NULL ? this->found : "", index(a, b), rindex(a, b), tolower(toupper(b)));
	a = "acbbcaabbbaccbbcbbaaaabababccabcbcacabcababcbac"; b = "acbbcaabbbaccbbcbbaaaababbbca";
	this->first = strchr(a, 'b'); this->last = strrchr(a, 'b'); this->found = strstr(a, b);
	printf("%d %d %d %d %s|%s|%s|%s %d %d %s\n", a == b, a < b, a > b, b < a, this->first != NULL ? this->first : "",
	    this->last != NULL ? this->last : "", toupper(a), this->found != NULL ? this->found : "", index(a, b), rindex(a, b), tolower(toupper(b)));
	a = "aacbcaccbc"; b = "aacbcac";
	this->first = strchr(a, 'b'); this->last = strrchr(a, 'b'); this->found = strstr(a, b);
	printf("%d %d %d %d %s|%s|%s|%s %d %d %s\n", a == b, a < b, a > b, b < a, this->first != NULL ? this->first : "",
	    this->last != NULL ? this->last : "", toupper(a), this->found != NULL ? this->found : "", index(a, b), rindex(a, b), tolower(toupper(b)));
	a = "c"; b = "";
	this->first = strchr(a, 'b'); this->last = strrchr(a, 'b'); this->found = strstr(a, b);
	printf("%d %d %d %d %s|%s|%s|%s %d %d %s\n", a == b, a < b, a > b, b < a, this->first != NULL ? this->first : "",
	    this->last != NULL ? this->last : "", toupper(a), this->found != NULL ? this->found : "", index(a, b), rindex(a, b), tolower(toupper(b)));
	a = "aababcacbbcbaacbbcccbcacacc"; b = "baca";
	this->first = strchr(a, 'b'); this->last = strrchr(a, 'b'); this->found = strstr(a, b);
	printf("%d %d %d %d %s|%s|%s|%s %d %d %s\n", a == b, a < b, a > b, b < a, this->first != NULL ? this->first : "",
	    this->last != NULL ? this->last : "", toupper(a), this->found != NULL ? this->found : "", index(a, b), rindex(a, b), tolower(toupper(b)));
	a = "bccacabcccc"; b = "bccacabaca";
	this->first = strchr(a, 'b'); this->last = strrchr(a, 'b'); this->found = strstr(a, b);
	printf("%d %d %d %d %s|%s|%s|%s %d %d %s\n", a == b, a < b, a > b, b < a, this->first != NULL ? this->first : "",
	    this->last != NULL ? this->last : "", toupper(a), this->found != NULL ? this->found : "", index(a, b), rindex(a, b), tolower(toupper(b)));
	exit(0);
}
