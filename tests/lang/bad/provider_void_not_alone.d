provider app {
	probe ready(void, int);
};
