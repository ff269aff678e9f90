provider app {
	probe ready(int);
	probe ready(int);
};
