X X = ž;
