/*
 * basename() and dirname() of texts known only when the clause runs (D variables of every
 * scope, a kernel char array): the last component and what precedes it, trailing slashes
 * dropped; "/" for slashes only; "." as the directory of a bare name.
 */
#pragma D option quiet

BEGIN
{
	this->path = "/usr/lib/";
	path = "a//b";
	self->path = "///";
	printf("%s %s\n", basename(this->path), dirname(this->path));
	printf("%s %s\n", basename(path), dirname(path));
	printf("%s %s\n", basename(self->path), dirname(self->path));
	printf("%s %s\n", basename(execname), dirname(execname));
	exit(0);
}
