#pragma D option quiet

dtrace:::BEGIN
{
	@ = stddev(2);
	@ = stddev(4);
	@ = stddev(4);
	@ = stddev(4);
	@ = stddev(5);
	@ = stddev(5);
	@ = stddev(7);
	@ = stddev(9);
	exit(0);
}
