BEGIN { printf("x"); commit(1);A}
