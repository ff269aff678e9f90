provider app {
	probe ready(int, ...);
};
