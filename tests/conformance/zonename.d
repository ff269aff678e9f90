#pragma D option quiet
BEGIN { printf("%s %d\n", zonename, strlen(root)); exit(0); }
