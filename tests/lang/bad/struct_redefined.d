struct point {
  int x;
};
struct point {
  int y;
};
