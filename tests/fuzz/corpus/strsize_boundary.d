#pragma D option strsize=8
BEGIN { a = "12345678"; b = strjoin(a, "9"); @[b] = count(); trace(strlen(b) == sizeof(a)); exit(0); }
