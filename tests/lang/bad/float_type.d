double d;
