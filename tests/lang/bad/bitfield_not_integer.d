struct flags {
	string name:3;
};
