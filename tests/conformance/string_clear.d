/*
 * A string variable may be assigned 0, as scripts do to free a thread-local path once it is
 * used (DTrace's assignment rules take the constant 0 as compatible with any pointer or string);
 * the variable can then be assigned again.
 */
#pragma D option quiet

BEGIN
{
	self->path = "/etc/passwd";
	self->path = 0;
	self->path = "/tmp";
	this->name = "first";
	this->name = 0;
	this->name = "second";
	names["k"] = "v";
	names["k"] = 0;
	names["k"] = "w";
	printf("%s %s %s\n", self->path, this->name, names["k"]);
	exit(0);
}
