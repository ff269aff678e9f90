extd$n imbol;
