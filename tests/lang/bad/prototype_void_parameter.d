int foo(int, void);
