#!/usr/bin/env -S dsched -s
/*
 * tcpstate.d: every change of a TCP connection's state, with its process context, addresses
 * and how long it stayed in the state it leaves (microseconds; "-" when the change is the first
 * this script saw). Ctrl-C ends it.
 */
#pragma D option quiet

uint64_t entered[uintptr_t];	/* when each socket entered its state */

BEGIN
{
	printf("%-16s %-26s %-26s %-18s %-18s %10s\n", "CONTEXT", "LOCAL", "REMOTE", "FROM", "TO", "US");
}

tcp:::state-change
{
	this->entered = entered[args[3]->tcps_addr];
	printf("%-16s %-20s %5d %-20s %5d %-18s %-18s %10s\n", execname, args[3]->tcps_laddr,
	    args[3]->tcps_lport, args[3]->tcps_raddr, args[3]->tcps_rport,
	    tcp_state_string[args[5]->tcps_state], tcp_state_string[args[3]->tcps_state],
	    this->entered ? lltostr((timestamp - this->entered) / 1000) : "-");
	entered[args[3]->tcps_addr] = args[3]->tcps_state == TCP_STATE_CLOSED ? 0 : timestamp;
}
