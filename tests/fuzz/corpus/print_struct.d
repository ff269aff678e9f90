struct s { int a : 3; char c[2]; struct { long x; } in; } v; BEGIN { v.a = -1; print(v); print(v.in); print(1 + "ab" - 2); exit(0); }
