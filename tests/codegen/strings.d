/* String subroutines, comparison and string-keyed variables. */
#pragma D option strsize=64

proc:::exec-success
{
	this->name = execname;
	names[this->name] = strlen(this->name);
	printf("%s %s %s %s\n", strjoin(this->name, "-x"), substr(this->name, 1, 3), strchr(this->name, 's'),
	    strrchr(this->name, 's'));
	printf("%s %s %s %s\n", strstr(this->name, "sh"), basename("/usr/bin/env"), dirname("/usr/bin/env"),
	    lltostr(pid, 16));
}

proc:::exec-success
/execname == "bash" && names[execname] > 3/
{
	trace(stringof(curpsinfo->pr_fname));
}
