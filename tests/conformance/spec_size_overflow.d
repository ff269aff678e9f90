#pragma D option quiet
#pragma D option specsize=64

BEGIN { s = speculation(); }
BEGIN { speculate(s); printf("%s\n", "too big for the buffer"); }
BEGIN { speculate(s); printf("%d\n", 1); }
BEGIN { commit(s); }
BEGIN { exit(0); }
