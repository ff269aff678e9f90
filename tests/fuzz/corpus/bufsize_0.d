#pragma D option bufsize=0
BEGIN { exit(0); }
