#pragma D option bufsize=1t
BEGIN { exit(0); }
