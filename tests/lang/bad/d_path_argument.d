BEGIN { trace(d_path(curthread)); exit(0); }
