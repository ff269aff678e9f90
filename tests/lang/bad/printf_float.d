double d;
BEGIN { printf("%f", d); }
