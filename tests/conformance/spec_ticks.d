#pragma D option quiet

int n;

BEGIN { s = speculation(); }
profile:::tick-10ms /n < 3/ { speculate(s); printf("tick %d\n", ++n); }
profile:::tick-10ms /n == 3/ { printf("committing\n"); }
profile:::tick-10ms /n == 3/ { commit(s); }
profile:::tick-10ms /n == 3/ { exit(0); }
