#!/usr/bin/env -S dsched -s
/*
 * profile.d: on-CPU sampling, 99 times a second on every CPU: which process, user stack and kernel
 * stack were running. Ctrl-C prints the samples; add `-x foldstacks` for the folded lines that
 * flamegraph.pl, inferno and speedscope read.
 */
#pragma D option quiet

profile-99
/pid != 0/
{
	@samples[execname, ustack(), stack()] = count();
}
