provider app {
	probe ready(int code) : (int);
};
