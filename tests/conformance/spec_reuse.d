#pragma D option quiet

BEGIN { s = speculation(); }
BEGIN { speculate(s); printf("first use\n"); }
BEGIN { commit(s); }
BEGIN { t = speculation(); printf("reused %d\n", t == s); }
BEGIN { speculate(t); printf("second use\n"); }
BEGIN { commit(t); }
BEGIN { commit(t); }
BEGIN { printf("committing again prints nothing more\n"); exit(0); }
