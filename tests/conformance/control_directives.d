/*
 * Control lines DTrace reads itself: #ident and #pragma ident in any form are ignored, and so is
 * a #pragma for another compiler; #pragma D attributes and binding only describe the program.
 */
#ident "@(#)control_directives.d 1.0"
#pragma ident "control_directives.d"
#pragma D ident "control_directives.d"
#pragma weak some_symbol
#pragma D attributes Evolving/Evolving/Common provider sched provider
#pragma D binding "1.0" answer
#pragma D option quiet

inline int answer = 42;

BEGIN
{
	printf("%d\n", answer);
	exit(0);
}
