struct flags {
	int low:32;
};
