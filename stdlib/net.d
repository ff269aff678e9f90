/*
 * net.d: what the networking subroutines (inet_ntoa, inet_ntoa6, inet_ntop, link_ntop, htons...)
 * take, and the constants scripts compare socket and device fields with, with the Linux kernel's
 * values. DTrace's net.d, socket constants and ip.d types.
 */
typedef uint32_t ipaddr_t;      /* an IPv4 address, in network byte order */
typedef uint16_t in_port_t;     /* a port, in network byte order */
typedef uint16_t sa_family_t;
typedef uint32_t socklen_t;
/* An IPv6 address. */
typedef union {
  uint8_t s6_addr[16];
  uint16_t s6_addr16[8];
  uint32_t s6_addr32[4];
} in6_addr_t;

/* The direction of a packet, as DTrace for Linux's network providers name it. */
inline int NET_PROBE_OUTBOUND = 0x00;
inline int NET_PROBE_INBOUND = 0x01;

inline int INET_ADDRSTRLEN = 16;
inline int INET6_ADDRSTRLEN = 46;

/* Address families (linux/socket.h); the PF_ names are the same numbers. */
inline int AF_UNSPEC = 0;
inline int AF_UNIX = 1;
inline int AF_LOCAL = 1;
inline int AF_INET = 2;
inline int AF_AX25 = 3;
inline int AF_IPX = 4;
inline int AF_APPLETALK = 5;
inline int AF_NETROM = 6;
inline int AF_BRIDGE = 7;
inline int AF_ATMPVC = 8;
inline int AF_X25 = 9;
inline int AF_INET6 = 10;
inline int AF_ROSE = 11;
inline int AF_DECnet = 12;
inline int AF_NETBEUI = 13;
inline int AF_SECURITY = 14;
inline int AF_KEY = 15;
inline int AF_NETLINK = 16;
inline int AF_ROUTE = 16;
inline int AF_PACKET = 17;
inline int AF_ASH = 18;
inline int AF_ECONET = 19;
inline int AF_ATMSVC = 20;
inline int AF_RDS = 21;
inline int AF_SNA = 22;
inline int AF_IRDA = 23;
inline int AF_PPPOX = 24;
inline int AF_WANPIPE = 25;
inline int AF_LLC = 26;
inline int AF_IB = 27;
inline int AF_MPLS = 28;
inline int AF_CAN = 29;
inline int AF_TIPC = 30;
inline int AF_BLUETOOTH = 31;
inline int AF_IUCV = 32;
inline int AF_RXRPC = 33;
inline int AF_ISDN = 34;
inline int AF_PHONET = 35;
inline int AF_IEEE802154 = 36;
inline int AF_CAIF = 37;
inline int AF_ALG = 38;
inline int AF_NFC = 39;
inline int AF_VSOCK = 40;
inline int AF_KCM = 41;
inline int AF_QIPCRTR = 42;
inline int AF_SMC = 43;
inline int AF_XDP = 44;
inline int AF_MCTP = 45;
inline int AF_MAX = 46;
inline int PF_UNSPEC = 0;
inline int PF_UNIX = 1;
inline int PF_LOCAL = 1;
inline int PF_INET = 2;
inline int PF_INET6 = 10;
inline int PF_NETLINK = 16;
inline int PF_PACKET = 17;

/* Socket types (linux/net.h) and socket() flags. */
inline int SOCK_STREAM = 1;
inline int SOCK_DGRAM = 2;
inline int SOCK_RAW = 3;
inline int SOCK_RDM = 4;
inline int SOCK_SEQPACKET = 5;
inline int SOCK_DCCP = 6;
inline int SOCK_PACKET = 10;
inline int SOCK_NONBLOCK = 0x800;
inline int SOCK_CLOEXEC = 0x80000;

/* Socket option levels and options (asm-generic/socket.h). */
inline int SOL_SOCKET = 1;
inline int SOL_IP = 0;
inline int SOL_TCP = 6;
inline int SOL_UDP = 17;
inline int SOL_IPV6 = 41;
inline int SO_DEBUG = 1;
inline int SO_REUSEADDR = 2;
inline int SO_TYPE = 3;
inline int SO_ERROR = 4;
inline int SO_DONTROUTE = 5;
inline int SO_BROADCAST = 6;
inline int SO_SNDBUF = 7;
inline int SO_RCVBUF = 8;
inline int SO_KEEPALIVE = 9;
inline int SO_OOBINLINE = 10;
inline int SO_LINGER = 13;
inline int SO_REUSEPORT = 15;
inline int SO_RCVLOWAT = 18;
inline int SO_SNDLOWAT = 19;
inline int SO_ACCEPTCONN = 30;

/* Message flags (linux/socket.h). */
inline int MSG_OOB = 0x1;
inline int MSG_PEEK = 0x2;
inline int MSG_DONTROUTE = 0x4;
inline int MSG_CTRUNC = 0x8;
inline int MSG_TRUNC = 0x20;
inline int MSG_DONTWAIT = 0x40;
inline int MSG_EOR = 0x80;
inline int MSG_WAITALL = 0x100;
inline int MSG_NOSIGNAL = 0x4000;

/* IP protocols (linux/in.h, linux/in6.h). */
inline int IPPROTO_IP = 0;
inline int IPPROTO_HOPOPTS = 0;
inline int IPPROTO_ICMP = 1;
inline int IPPROTO_IGMP = 2;
inline int IPPROTO_IPIP = 4;
inline int IPPROTO_TCP = 6;
inline int IPPROTO_EGP = 8;
inline int IPPROTO_PUP = 12;
inline int IPPROTO_UDP = 17;
inline int IPPROTO_IDP = 22;
inline int IPPROTO_TP = 29;
inline int IPPROTO_DCCP = 33;
inline int IPPROTO_IPV6 = 41;
inline int IPPROTO_ROUTING = 43;
inline int IPPROTO_FRAGMENT = 44;
inline int IPPROTO_RSVP = 46;
inline int IPPROTO_GRE = 47;
inline int IPPROTO_ESP = 50;
inline int IPPROTO_AH = 51;
inline int IPPROTO_ICMPV6 = 58;
inline int IPPROTO_NONE = 59;
inline int IPPROTO_DSTOPTS = 60;
inline int IPPROTO_MTP = 92;
inline int IPPROTO_ENCAP = 98;
inline int IPPROTO_PIM = 103;
inline int IPPROTO_COMP = 108;
inline int IPPROTO_SCTP = 132;
inline int IPPROTO_UDPLITE = 136;
inline int IPPROTO_MPLS = 137;
inline int IPPROTO_RAW = 255;

/* Link-layer address types (linux/if_arp.h), as link_ntop() takes them. */
inline int ARPHRD_NETROM = 0;
inline int ARPHRD_ETHER = 1;
inline int ARPHRD_EETHER = 2;
inline int ARPHRD_AX25 = 3;
inline int ARPHRD_PRONET = 4;
inline int ARPHRD_CHAOS = 5;
inline int ARPHRD_IEEE802 = 6;
inline int ARPHRD_ARCNET = 7;
inline int ARPHRD_APPLETLK = 8;
inline int ARPHRD_DLCI = 15;
inline int ARPHRD_ATM = 19;
inline int ARPHRD_METRICOM = 23;
inline int ARPHRD_IEEE1394 = 24;
inline int ARPHRD_EUI64 = 27;
inline int ARPHRD_INFINIBAND = 32;
inline int ARPHRD_SLIP = 256;
inline int ARPHRD_PPP = 512;
inline int ARPHRD_TUNNEL = 768;
inline int ARPHRD_TUNNEL6 = 769;
inline int ARPHRD_LOOPBACK = 772;
inline int ARPHRD_SIT = 776;
inline int ARPHRD_IPGRE = 778;
inline int ARPHRD_IEEE80211 = 801;
inline int ARPHRD_NONE = 0xfffe;
inline int ARPHRD_VOID = 0xffff;
