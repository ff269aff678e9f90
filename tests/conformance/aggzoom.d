#pragma D option quiet

/* Without aggzoom a bar is its bucket's share of the total; with it, of the largest bucket, whose
 * bar then fills 95% of the width (38 of 40 columns). setopt() switches it while the script runs. */
BEGIN
{
	@q = quantize(1);
	@q = quantize(2);
	@q = quantize(2);
	@q = quantize(1000);
	@l = lquantize(-3, -5, 5, 1);
	@l = lquantize(2, -5, 5, 1);
	@l = lquantize(2, -5, 5, 1);
	printa(@q);
	setopt("aggzoom");
	printa(@q);
	printa(@l);
	exit(0);
}
