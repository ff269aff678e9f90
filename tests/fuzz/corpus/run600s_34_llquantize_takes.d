BEGIN { @ = llquantize(1, 65535< 0, 65535, 65535); }
