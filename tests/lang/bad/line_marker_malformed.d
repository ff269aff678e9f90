#line 10 main
BEGIN { }
