#pragma D option quiet

/* p[i] = v through a global pointer stores *(p + i), as DTrace reads x[i] of a scalar x. */
char *p;
BEGIN { p = alloca(8); p[0] = 'h'; p[1] = 'i'; p[2] = 0; printf("%s\n", stringof(p)); 
  a = (uint32_t *)alloca(16); a[0] = 5; a[3] = 7; printf("%d %d %d\n", a[0], a[3], *(a+3)); exit(0); }
