struct r { int a; };
struct r x;
BEGIN { x = 0; exit(0); }
