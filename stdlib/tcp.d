/*
 * tcp.d: DTrace's view of a TCP segment and connection (args[3], args[4] and args[5] of the tcp
 * provider), translated from the kernel's socket and TCP header. The states are DTrace's
 * TCP_STATE_* numbers; tcp_state_from_linux[] maps the kernel's TCP_* states onto them (the same
 * numbers, a connection request counted as SYN_RECEIVED).
 * args[3] is NULL where no connection is known (a segment for a port nobody listens on, a reset
 * sent on behalf of no socket): its members then read 0, "<unknown>" and TCP_STATE_CLOSED, as in
 * DTrace. What the kernel's socket does not keep (the initial send
 * sequence number, the sequence number last acknowledged, the SACK positions, whether the
 * connection was opened from here) or keeps in units this library cannot convert (the
 * retransmission timeout, in jiffies) is left out of the translator: a script naming it is
 * refused at compile time instead of given a made-up value.
 */
inline int TH_FIN = 0x01;
inline int TH_SYN = 0x02;
inline int TH_RST = 0x04;
inline int TH_PSH = 0x08;
inline int TH_PUSH = 0x08;  /* illumos's name */
inline int TH_ACK = 0x10;
inline int TH_URG = 0x20;
inline int TH_ECE = 0x40;
inline int TH_CWR = 0x80;

/* DTrace for Linux's numbers, which are the kernel's; BOUND is the kernel's BOUND_INACTIVE. */
inline int32_t TCP_STATE_IDLE = 0;
inline int32_t TCP_STATE_ESTABLISHED = 1;
inline int32_t TCP_STATE_SYN_SENT = 2;
inline int32_t TCP_STATE_SYN_RECEIVED = 3;
inline int32_t TCP_STATE_FIN_WAIT_1 = 4;
inline int32_t TCP_STATE_FIN_WAIT_2 = 5;
inline int32_t TCP_STATE_TIME_WAIT = 6;
inline int32_t TCP_STATE_CLOSED = 7;
inline int32_t TCP_STATE_CLOSE_WAIT = 8;
inline int32_t TCP_STATE_LAST_ACK = 9;
inline int32_t TCP_STATE_LISTEN = 10;
inline int32_t TCP_STATE_CLOSING = 11;
inline int32_t TCP_STATE_BOUND = 13;

/* Copied into one string, as ip_protocol_string[] (stdlib/ip.d) is, for the verifier's sake. */
inline string tcp_state_string[int32_t state] = strjoin(
    state == TCP_STATE_CLOSED ? "state-closed" :
    state == TCP_STATE_IDLE ? "state-idle" :
    state == TCP_STATE_BOUND ? "state-bound" :
    state == TCP_STATE_LISTEN ? "state-listen" :
    state == TCP_STATE_SYN_SENT ? "state-syn-sent" :
    state == TCP_STATE_SYN_RECEIVED ? "state-syn-received" :
    state == TCP_STATE_ESTABLISHED ? "state-established" :
    state == TCP_STATE_CLOSE_WAIT ? "state-close-wait" :
    state == TCP_STATE_FIN_WAIT_1 ? "state-fin-wait-1" :
    state == TCP_STATE_CLOSING ? "state-closing" :
    state == TCP_STATE_LAST_ACK ? "state-last-ack" :
    state == TCP_STATE_FIN_WAIT_2 ? "state-fin-wait-2" :
    state == TCP_STATE_TIME_WAIT ? "state-time-wait" :
    "<unknown>", "");

/*
 * The kernel's states (include/net/tcp_states.h): ESTABLISHED 1, SYN_SENT 2, SYN_RECV 3,
 * FIN_WAIT1 4, FIN_WAIT2 5, TIME_WAIT 6, CLOSE 7, CLOSE_WAIT 8, LAST_ACK 9, LISTEN 10, CLOSING 11,
 * NEW_SYN_RECV 12 (a connection request not yet a socket), BOUND_INACTIVE 13.
 */
inline int32_t tcp_state_from_linux[int s] =
    s == 12 ? TCP_STATE_SYN_RECEIVED : s >= TCP_STATE_ESTABLISHED && s <= TCP_STATE_BOUND ? s : TCP_STATE_CLOSED;

/* The raw header tcp_hdr points to, as on the wire (network byte order), with DTrace's names. */
typedef struct tcph {
  uint16_t th_lport;  /* source port */
  uint16_t th_fport;  /* destination port */
  uint32_t th_seq;
  uint32_t th_ack;
  uint8_t th_offset_and_rsrvd;
  uint8_t th_flags;
  uint16_t th_win;
  uint16_t th_sum;
  uint16_t th_urp;
} tcph_t;

typedef struct tcpinfo {
  uint16_t tcp_sport;      /* source port */
  uint16_t tcp_dport;      /* destination port */
  uint32_t tcp_seq;        /* sequence number */
  uint32_t tcp_ack;        /* acknowledgment number */
  uint8_t tcp_offset;      /* data offset, in bytes */
  uint8_t tcp_flags;       /* TH_* flags */
  uint16_t tcp_window;     /* window size, unscaled */
  uint16_t tcp_checksum;   /* checksum */
  uint16_t tcp_urgent;     /* urgent data pointer */
  tcph_t *tcp_hdr;         /* the header */
} tcpinfo_t;

typedef struct tcpsinfo {
  uintptr_t tcps_addr;          /* the socket (struct sock *) */
  int tcps_local;               /* both ends have the same address: delivered locally */
  int tcps_active;              /* not available: opened from here */
  uint16_t tcps_lport;          /* local port */
  uint16_t tcps_rport;          /* remote port */
  string tcps_laddr;            /* local address */
  string tcps_raddr;            /* remote address */
  int32_t tcps_state;           /* TCP_STATE_* */
  uint32_t tcps_iss;            /* not available: initial sequence number sent */
  uint32_t tcps_suna;           /* oldest sequence number sent and not acknowledged */
  uint32_t tcps_snxt;           /* next sequence number to send */
  uint32_t tcps_rack;           /* not available: sequence number last acknowledged */
  uint32_t tcps_rnxt;           /* next sequence number expected */
  uint32_t tcps_swnd;           /* send window, bytes */
  int32_t tcps_snd_ws;          /* send window scale */
  uint32_t tcps_rwnd;           /* receive window, bytes */
  int32_t tcps_rcv_ws;          /* receive window scale */
  uint32_t tcps_cwnd;           /* congestion window, bytes */
  uint32_t tcps_cwnd_ssthresh;  /* slow start threshold, bytes */
  uint32_t tcps_sack_fack;      /* not available: highest sequence number SACKed */
  uint32_t tcps_sack_snxt;      /* not available: next sequence number to retransmit by SACK */
  uint32_t tcps_rto;            /* not available: retransmission timeout, ms */
  uint32_t tcps_mss;            /* maximum segment size */
  int tcps_retransmit;          /* tcp:::send of a sequence number sent before */
  uint32_t tcps_rtt;            /* smoothed round-trip time, ms */
  uint32_t tcps_rtt_sd;         /* mean deviation of the round-trip time, ms */
} tcpsinfo_t;

typedef struct tcplsinfo {
  int32_t tcps_state;  /* the previous state */
} tcplsinfo_t;

translator tcpinfo_t < struct tcphdr *T > {
  tcp_sport = ntohs(T->source);
  tcp_dport = ntohs(T->dest);
  tcp_seq = ntohl(T->seq);
  tcp_ack = ntohl(T->ack_seq);
  tcp_offset = T->doff * 4;
  tcp_flags = *((uint8_t *)T + 13);
  tcp_window = ntohs(T->window);
  tcp_checksum = ntohs(T->check);
  tcp_urgent = ntohs(T->urg_ptr);
  tcp_hdr = (tcph_t *)T;
};

/* The same segment's ports (see ipinfo_t < struct sock * >); the rest of its header is not known. */
translator tcpinfo_t < struct sock *S > {
  tcp_sport = ntohs(S->__sk_common.skc_dport);
  tcp_dport = S->__sk_common.skc_num;
  tcp_hdr = NULL;
};

/*
 * The probes that fire on a change of state (state-change, connect-established,
 * accept-established) fire before the kernel stores the new state in the socket: their arg6 is
 * the new state, in the kernel's numbering (0 in every other probe). tcps_retransmit compares a
 * sent segment's sequence number (arg4 is its header) with the next one the socket would send.
 */
translator tcpsinfo_t < struct sock *S > {
  tcps_addr = (uintptr_t)S;
  tcps_local = S == NULL ? 0 :
      S->__sk_common.skc_family == AF_INET ? S->__sk_common.skc_rcv_saddr == S->__sk_common.skc_daddr :
      S->__sk_common.skc_v6_rcv_saddr.in6_u.u6_addr32[0] == S->__sk_common.skc_v6_daddr.in6_u.u6_addr32[0] &&
      S->__sk_common.skc_v6_rcv_saddr.in6_u.u6_addr32[1] == S->__sk_common.skc_v6_daddr.in6_u.u6_addr32[1] &&
      S->__sk_common.skc_v6_rcv_saddr.in6_u.u6_addr32[2] == S->__sk_common.skc_v6_daddr.in6_u.u6_addr32[2] &&
      S->__sk_common.skc_v6_rcv_saddr.in6_u.u6_addr32[3] == S->__sk_common.skc_v6_daddr.in6_u.u6_addr32[3];
  tcps_lport = S != NULL ? S->__sk_common.skc_num : arg0 != NULL ? packet_port[arg4, probename == "receive", 0] : 0;
  tcps_rport = S != NULL && S->__sk_common.skc_dport != 0 ? ntohs(S->__sk_common.skc_dport) :
      arg0 != NULL ? packet_port[arg4, probename == "receive", 1] : 0;
  tcps_laddr = S != NULL ? sock_address_string[(uintptr_t)S, 0] :
      arg0 != NULL ? packet_address_string[arg2, probename == "receive", 0] : "<unknown>";
  tcps_raddr = S != NULL ? sock_address_string[(uintptr_t)S, 1] :
      arg0 != NULL ? packet_address_string[arg2, probename == "receive", 1] : "<unknown>";
  tcps_state = S == NULL ? TCP_STATE_CLOSED : tcp_state_from_linux[arg6 != 0 ? arg6 : S->__sk_common.skc_state];
  tcps_suna = S == NULL ? 0 : ((struct tcp_sock *)S)->snd_una;
  tcps_snxt = S == NULL ? 0 : ((struct tcp_sock *)S)->snd_nxt;
  tcps_rnxt = S == NULL ? 0 : ((struct tcp_sock *)S)->rcv_nxt;
  tcps_swnd = S == NULL ? 0 : ((struct tcp_sock *)S)->snd_wnd;
  tcps_snd_ws = S == NULL ? 0 : ((struct tcp_sock *)S)->rx_opt.snd_wscale;
  tcps_rwnd = S == NULL ? 0 : ((struct tcp_sock *)S)->rcv_wnd;
  tcps_rcv_ws = S == NULL ? 0 : ((struct tcp_sock *)S)->rx_opt.rcv_wscale;
  tcps_cwnd = S == NULL ? 0 : ((struct tcp_sock *)S)->snd_cwnd * ((struct tcp_sock *)S)->mss_cache;
  tcps_cwnd_ssthresh = S == NULL ? 0 : ((struct tcp_sock *)S)->snd_ssthresh >= 0x7fffffff / ((struct tcp_sock *)S)->mss_cache ?
      0x7fffffff : ((struct tcp_sock *)S)->snd_ssthresh * ((struct tcp_sock *)S)->mss_cache;
  tcps_mss = S == NULL ? 0 : ((struct tcp_sock *)S)->mss_cache;
  tcps_retransmit = S != NULL && probename == "send" && arg4 != 0 &&
      (int32_t)(ntohl(((struct tcphdr *)arg4)->seq) - ((struct tcp_sock *)S)->snd_nxt) < 0;
  tcps_rtt = S == NULL ? 0 : (((struct tcp_sock *)S)->srtt_us >> 3) / 1000;
  tcps_rtt_sd = S == NULL ? 0 : (((struct tcp_sock *)S)->mdev_us >> 2) / 1000;
};

translator tcplsinfo_t < int S > {
  tcps_state = tcp_state_from_linux[S];
};
