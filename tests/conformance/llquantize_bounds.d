/*
 * llquantize() at the edges of its buckets: one below, at and one above each bound of
 * factor 10, magnitudes 1 to 2, 20 steps (buckets 5 wide below 100, 50 wide up to 1000), plus
 * negative values, zero and the largest value, which land in the first and the last bucket.
 */
#pragma D option quiet

BEGIN
{
	@ = llquantize(-9223372036854775807 - 1, 10, 1, 2, 20);
	@ = llquantize(-1, 10, 1, 2, 20);
	@ = llquantize(0, 10, 1, 2, 20);
	@ = llquantize(9, 10, 1, 2, 20);
	@ = llquantize(10, 10, 1, 2, 20);
	@ = llquantize(19, 10, 1, 2, 20);
	@ = llquantize(20, 10, 1, 2, 20);
	@ = llquantize(21, 10, 1, 2, 20);
	@ = llquantize(99, 10, 1, 2, 20);
	@ = llquantize(100, 10, 1, 2, 20);
	@ = llquantize(149, 10, 1, 2, 20);
	@ = llquantize(150, 10, 1, 2, 20);
	@ = llquantize(151, 10, 1, 2, 20);
	@ = llquantize(949, 10, 1, 2, 20);
	@ = llquantize(950, 10, 1, 2, 20);
	@ = llquantize(999, 10, 1, 2, 20);
	@ = llquantize(1000, 10, 1, 2, 20);
	@ = llquantize(9223372036854775807, 10, 1, 2, 20);
	exit(0);
}
