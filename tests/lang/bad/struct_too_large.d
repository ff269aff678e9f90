struct big { char bytes[9000]; };
struct big b;
