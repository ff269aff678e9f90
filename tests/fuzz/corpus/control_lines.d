#line 12 "other.d"
# 40
#ident "x"
#pragma D ident "y"
#pragma weak z
#pragma D error "stop" 3
BEGIN { trace(1); }
#line
#frob
