self int foo(int);
