#!/usr/sbin/dtrace -Cqs
/*
 * The #! line is honoured for its flags (-C: preprocess, -q: quiet, so no pragma here) and
 * removed before preprocessing; the lines keep their numbers.
 */
#define GREETING "from the preprocessor"

dtrace:::BEGIN
{
	printf("%s, line %d\n", GREETING, __LINE__);
	exit(0);
}
