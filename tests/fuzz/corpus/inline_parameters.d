inline int sq[int x] = x * x;
inline string pick[string a, int n] = n ? a : "none";
BEGIN { trace(sq[sq[2]]); trace(pick["x", 1]); trace(fds[0].fi_name); trace(sq); }
