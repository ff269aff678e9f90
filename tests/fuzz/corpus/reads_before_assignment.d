tick-1ms
/n++ > 5 && self->k-- < 0 && c[n]++/
{
	total += self->k;
	y = y + 1;
	trace(z[1]);
}
