#pragma D option quiet

BEGIN { s = speculation(); }
BEGIN { speculate(s); printf("never printed\n"); }
BEGIN { discard(s); }
BEGIN { printf("discarded %d\n", s); exit(0); }
