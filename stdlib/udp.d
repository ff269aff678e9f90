/*
 * udp.d: DTrace's view of a UDP datagram and socket (args[3] and args[4] of the udp provider),
 * translated from the kernel's socket and UDP header. args[3] is NULL where the socket is not
 * known (a datagram as it arrives, before the socket is looked up): its members then read 0 and
 * "<unknown>", as in DTrace.
 */
/* The raw header udp_hdr points to, as on the wire (network byte order), with DTrace's names. */
typedef struct udpha {
  uint16_t uha_src_port;
  uint16_t uha_dst_port;
  uint16_t uha_length;
  uint16_t uha_checksum;
} udpha_t;

typedef struct udpinfo {
  uint16_t udp_sport;      /* source port */
  uint16_t udp_dport;      /* destination port */
  uint16_t udp_length;     /* length: header and payload */
  uint16_t udp_checksum;   /* checksum */
  udpha_t *udp_hdr;        /* the header */
} udpinfo_t;

typedef struct udpsinfo {
  uintptr_t udps_addr;  /* the socket (struct sock *) */
  uint16_t udps_lport;  /* local port */
  uint16_t udps_rport;  /* remote port (0 when not connected) */
  string udps_laddr;    /* local address */
  string udps_raddr;    /* remote address */
} udpsinfo_t;

translator udpinfo_t < struct udphdr *U > {
  udp_sport = ntohs(U->source);
  udp_dport = ntohs(U->dest);
  udp_length = ntohs(U->len);
  udp_checksum = ntohs(U->check);
  udp_hdr = (udpha_t *)U;
};

translator udpsinfo_t < struct sock *S > {
  udps_addr = (uintptr_t)S;
  udps_lport = packet_port[arg4, probename == "receive", 0];
  udps_rport = packet_port[arg4, probename == "receive", 1];
  udps_laddr = packet_address_string[arg2, probename == "receive", 0];
  udps_raddr = packet_address_string[arg2, probename == "receive", 1];
};
