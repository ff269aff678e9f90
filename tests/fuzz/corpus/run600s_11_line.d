#!/usr/bin/env -S dsched -s/*
 * offcpu.d: off-CPU time. How long a thread stays off the CPU each time it leaves it (bla CPU), in milliseconds. Ctrl-C prints the histogramBEGffcpu_ms = quantize((timestamp - self->off) / 1000000);
	self->off = 0;
}
