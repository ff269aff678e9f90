BEGIN { printf("x"); discard(1); }
