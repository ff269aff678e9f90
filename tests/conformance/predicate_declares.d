#pragma D option quiet

/*
 * A predicate may read a variable that its own clause's actions are the first to assign (DTrace
 * checks the actions first), and the actions one the predicate is the first to assign.
 */
BEGIN
/seen == 0/
{
	seen = 1;
	printf("first %d\n", seen);
}

BEGIN
/this->mark == 0/
{
	this->mark = 7;
	printf("clause-local %d\n", this->mark);
}

profile:::tick-10ms
/ticks++ >= 2/
{
	printf("ticks %d\n", ticks);
	exit(0);
}
