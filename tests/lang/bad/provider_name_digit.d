provider dsched1 {
	probe ready();
};
