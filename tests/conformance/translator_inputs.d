#pragma D option quiet

/*
 * Translators to one output type from different input types are distinct declarations; xlate
 * picks the one whose input type matches.
 */
struct out {
	int a;
};

translator struct out < int x > { a = x + 1; };
translator struct out < char *s > { a = 100; };

dtrace:::BEGIN
{
	printf("%d %d\n", xlate<struct out>(1).a, xlate<struct out>((char *)0).a);
	exit(0);
}
