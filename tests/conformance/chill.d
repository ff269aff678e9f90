/* chill() spins the CPU for at least the time asked: the next tick on that CPU comes after it. */
#pragma D option quiet
#pragma D option destructive
int n;
tick-10ms /n == 0/ { start = timestamp; chill(100000000); }
tick-10ms /n == 1/ { printf("chilled at least 100 ms: %d\n", timestamp - start >= 100000000); }
tick-10ms /n++ == 1/ { exit(0); }
