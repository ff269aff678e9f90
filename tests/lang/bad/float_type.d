/* D declares floating-point objects but computes with none. */
double d;
BEGIN { x = d + 1; }
