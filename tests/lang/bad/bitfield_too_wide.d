struct flags {
	int low:33;
};
