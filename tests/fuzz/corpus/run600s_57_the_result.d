translator struct foo_out { int a; } < struct task_struct *T > { a = T->no_such_member; };
BEGIN { x = xlate<struct foo_out *>(curthread)-Aa; }
