BEGIN { @ = lquantize(1, 0, 1000000000, 1); }
