provider app {
	probe ready(int);
};

provider app {
	probe ready(char *);
};
