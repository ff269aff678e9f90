struct s { int a; char b; }; struct s v; int arr[3];
BEGIN { v.a = 1; trace(v); trace(arr); trace(*curthread); self->p = "x"; self->p = 0; }
