/* Declarations alone are no program. */
int x;
