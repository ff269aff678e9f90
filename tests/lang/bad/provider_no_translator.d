provider app {
	probe ready(int code) : (char *code);
};
