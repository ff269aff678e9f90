#pragma D option quiet

dtrace:::BEGIN
{
	@ = quantize(0);
	@ = quantize(-1);
	@ = quantize(-5);
	@ = quantize(0);
	exit(0);
}
