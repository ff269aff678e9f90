doubd;
