tick-999999999999d { exit(0); }
