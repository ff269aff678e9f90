#pragma D option quiet

BEGIN { s = speculation(); }
BEGIN { speculate(s); printf("speculated into %d\n", s); }
BEGIN { printf("before commit\n"); }
BEGIN { commit(s); }
BEGIN { printf("after commit\n"); exit(0); }
