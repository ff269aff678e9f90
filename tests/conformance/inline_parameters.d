/*
 * An inline may take parameters, named in its declarator as an associative array's keys are
 * typed (DTrace declares fds[] this way): each use expands the value with the arguments in the
 * parameters' places, an integer argument converted to its parameter's type.
 */
#pragma D option quiet

inline int square[int x] = x * x;
inline string greeting[string who, int loud] = loud ? strjoin(who, "!") : who;
inline uint8_t low_byte[uint8_t b] = b;

BEGIN
{
	printf("%d %d\n", square[4], square[2 + 1]);
	printf("%s %s\n", greeting["hello", 1], greeting["hello", 0]);
	printf("%d\n", low_byte[0x1ff]);
	exit(0);
}
