#pragma D option quiet

BEGIN { first = speculation(); second = speculation(); printf("%d %d\n", first, second); }
BEGIN { speculate(second); printf("no buffer: dropped\n"); }
BEGIN { commit(first); }
BEGIN { exit(0); }
