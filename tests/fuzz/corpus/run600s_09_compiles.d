struct big { char byte[0+ 1 ]; };
struct big b;
