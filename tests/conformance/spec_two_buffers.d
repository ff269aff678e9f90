#pragma D option quiet
#pragma D option nspec=2

BEGIN { a = speculation(); b = speculation(); printf("ids %d %d\n", a, b); }
BEGIN { speculate(a); printf("A1\n"); }
BEGIN { speculate(b); printf("B1\n"); }
BEGIN { speculate(a); printf("A2\n"); }
BEGIN { commit(b); }
BEGIN { commit(a); }
BEGIN { exit(0); }
