#!/usr/bin/env -S dsched -s
/*
 * tcpbytes.d: TCP payload bytes by remote address and port, sent and received, every five
 * seconds. The payload is what follows the TCP header: ip_plength less tcp_offset.
 */
#pragma D option quiet

tcp:::send
{
	@bytes[args[2]->ip_daddr, args[4]->tcp_dport, "sent"] =
	    sum(args[2]->ip_plength - args[4]->tcp_offset);
}

tcp:::receive
{
	@bytes[args[2]->ip_saddr, args[4]->tcp_sport, "received"] =
	    sum(args[2]->ip_plength - args[4]->tcp_offset);
}

tick-5s
{
	printf("%-40s %6s %-9s %12s\n", "REMOTE", "PORT", "", "BYTES");
	printa("%-40s %6d %-9s %@12d\n", @bytes);
	trunc(@bytes);
}
