/*
 * ip.d: DTrace's view of an IP packet (args[] of the ip, tcp and udp providers' packet probes),
 * translated from the kernel's socket buffer, network device and IPv4/IPv6 headers.
 * args[2] (void_ip_t *) is the packet's IP header, of either version; args[4] of ip:::send and
 * ip:::receive is the IPv4 header and NULL for an IPv6 packet, args[5] the IPv6 header and NULL
 * for an IPv4 packet. As in DTrace, a NULL header translates to zeros and "<null>" (ipinfo_t:
 * "<unknown>": the probes that fire on a socket rather than a packet have no header).
 */
inline int IPH_DF = 0x4000;  /* don't fragment, in the header's flags and offset */
inline int IPH_MF = 0x2000;  /* more fragments */

typedef uintptr_t void_ip_t;  /* an IPv4 or IPv6 header: the version is in its first 4 bits */

/*
 * The raw headers ipv4_hdr and ipv6_hdr point to, laid out as on the wire (multi-byte fields in
 * network byte order), with DTrace's names.
 */
typedef struct ipha {
  uint8_t ipha_version_and_hdr_length;
  uint8_t ipha_type_of_service;
  uint16_t ipha_length;
  uint16_t ipha_ident;
  uint16_t ipha_fragment_offset_and_flags;
  uint8_t ipha_ttl;
  uint8_t ipha_protocol;
  uint16_t ipha_hdr_checksum;
  ipaddr_t ipha_src;
  ipaddr_t ipha_dst;
} ipha_t;

typedef struct ip6 {
  uint32_t ip6_vcf;  /* version, traffic class, flow label */
  uint16_t ip6_plen;
  uint8_t ip6_nxt;
  uint8_t ip6_hlim;
  in6_addr_t ip6_src;
  in6_addr_t ip6_dst;
} ip6_t;
typedef uint32_t netstackid_t;  /* DTrace's IP stack id: here the network namespace */

typedef struct pktinfo {
  uintptr_t pkt_addr;  /* the socket buffer (struct sk_buff *) */
} pktinfo_t;

/* The process that owns a socket is not known where a packet passes, so cs_pid is left out. */
typedef struct csinfo {
  uintptr_t cs_addr;   /* the socket (struct sock *) that owns the packet, or NULL */
  uint64_t cs_cid;     /* the connection's id: the socket's address, unique while it lives */
  zoneid_t cs_zoneid;  /* always 0: Linux has no zones */
} csinfo_t;

typedef struct ipinfo {
  uint8_t ip_ver;      /* IP version: 4 or 6 */
  uint32_t ip_plength; /* payload length: the bytes after the IP header */
  string ip_saddr;     /* source address */
  string ip_daddr;     /* destination address */
} ipinfo_t;

typedef struct ifinfo {
  string if_name;          /* interface name: "lo", "eth0" */
  int8_t if_local;         /* 1 for the loopback interface: delivered locally */
  netstackid_t if_ipstack; /* the network namespace's inode number */
  uintptr_t if_addr;       /* the device (struct net_device *) */
} ifinfo_t;

typedef struct ipv4info {
  uint8_t ipv4_ver;        /* IP version (4) */
  uint8_t ipv4_ihl;        /* header length, bytes */
  uint8_t ipv4_tos;        /* type of service */
  uint16_t ipv4_length;    /* length: header and payload */
  uint16_t ipv4_ident;     /* identification */
  uint8_t ipv4_flags;      /* the flags: IPH_DF >> 12, IPH_MF >> 12 */
  uint16_t ipv4_offset;    /* fragment offset, in 8-byte units */
  uint8_t ipv4_ttl;        /* time to live */
  uint8_t ipv4_protocol;   /* next protocol: IPPROTO_TCP, ... */
  string ipv4_protostr;    /* next protocol, as a string */
  uint16_t ipv4_checksum;  /* header checksum */
  ipaddr_t ipv4_src;       /* source address, network order */
  ipaddr_t ipv4_dst;       /* destination address, network order */
  string ipv4_saddr;       /* source address, as a string */
  string ipv4_daddr;       /* destination address, as a string */
  ipha_t *ipv4_hdr;        /* the header */
} ipv4info_t;

typedef struct ipv6info {
  uint8_t ipv6_ver;          /* IP version (6) */
  uint8_t ipv6_tclass;       /* traffic class */
  uint32_t ipv6_flow;        /* flow label */
  uint16_t ipv6_plen;        /* payload length */
  uint8_t ipv6_nexthdr;      /* next header */
  string ipv6_nextstr;       /* next header, as a string */
  uint8_t ipv6_hlim;         /* hop limit */
  in6_addr_t *ipv6_src;      /* source address */
  in6_addr_t *ipv6_dst;      /* destination address */
  string ipv6_saddr;         /* source address, as a string */
  string ipv6_daddr;         /* destination address, as a string */
  ip6_t *ipv6_hdr;           /* the header */
} ipv6info_t;

/*
 * The name DTrace's ipv4_protostr and ipv6_nextstr give a protocol. The chosen name is copied
 * into one string: each literal is text at its own place, and until the clause is done with it
 * the verifier would follow the rest of the clause once per name (an address formatted later in
 * the clause would then exceed its budget).
 */
inline string ip_protocol_string[int p] = strjoin(
    p == IPPROTO_TCP ? "TCP" : p == IPPROTO_UDP ? "UDP" : p == IPPROTO_IP ? "IP" :
    p == IPPROTO_ICMP ? "ICMP" : p == IPPROTO_IGMP ? "IGMP" : p == IPPROTO_EGP ? "EGP" :
    p == IPPROTO_IPV6 ? "IPv6" : p == IPPROTO_ROUTING ? "ROUTE" : p == IPPROTO_ESP ? "ESP" :
    p == IPPROTO_AH ? "AH" : p == IPPROTO_ICMPV6 ? "ICMPv6" : p == 89 ? "OSPF" :
    p == IPPROTO_SCTP ? "SCTP" : p == IPPROTO_RAW ? "RAW" : lltostr(p), "");

/*
 * A socket's (struct sock *) local or remote address as text, "<unknown>" for no socket: the
 * addresses of tcpsinfo_t and udpsinfo_t.
 */
inline string sock_address_string[uintptr_t S, int remote] = S == NULL ? "<unknown>" :
    ((struct sock *)S)->__sk_common.skc_family == AF_INET ?
        inet_ntoa(remote ? &((struct sock *)S)->__sk_common.skc_daddr : &((struct sock *)S)->__sk_common.skc_rcv_saddr) :
        inet_ntoa6(remote ? &((struct sock *)S)->__sk_common.skc_v6_daddr :
                            &((struct sock *)S)->__sk_common.skc_v6_rcv_saddr);

/*
 * Where a probe has a packet but no socket (a segment for no socket, any UDP datagram), the ends
 * of tcpsinfo_t and udpsinfo_t come from the packet, as DTrace for Linux takes them: the local
 * end is the sender of what is sent and the receiver of what arrives. I is the IP header, H the
 * TCP or UDP header (both begin with the source port, then the destination port).
 */
inline string packet_address_string[uintptr_t I, int inbound, int remote] = I == NULL ? "<unknown>" :
    *(uint8_t *)I >> 4 == 4 ?
        inet_ntoa(inbound != remote ? &((struct iphdr *)I)->daddr : &((struct iphdr *)I)->saddr) :
        inet_ntoa6(inbound != remote ? &((struct ipv6hdr *)I)->daddr : &((struct ipv6hdr *)I)->saddr);
inline int packet_port[uintptr_t H, int inbound, int remote] = H == NULL ? 0 :
    ntohs(*(uint16_t *)(H + (inbound != remote ? 2 : 0)));

translator pktinfo_t < struct sk_buff *P > {
  pkt_addr = (uintptr_t)P;
};

translator csinfo_t < struct sock *C > {
  cs_addr = (uintptr_t)C;
  cs_cid = (uint64_t)C;
  cs_zoneid = 0;
};

/*
 * A packet larger than the length field holds (BIG TCP's segments above 64 KB, as the kernel
 * builds them on devices that allow it, loopback included) has the length 0 in its header: its
 * payload is then what the socket buffer (arg0) holds after the IP header.
 */
translator ipinfo_t < void_ip_t *I > {
  ip_ver = I != NULL ? *(uint8_t *)I >> 4 : 0;
  ip_plength = I == NULL ? 0 :
      *(uint8_t *)I >> 4 == 4 ?
          (((struct iphdr *)I)->tot_len != 0 ? ntohs(((struct iphdr *)I)->tot_len) :
              ((struct sk_buff *)arg0)->len - ((uintptr_t)I - (uintptr_t)((struct sk_buff *)arg0)->data)) -
          ((struct iphdr *)I)->ihl * 4 :
      ((struct ipv6hdr *)I)->payload_len != 0 ? ntohs(((struct ipv6hdr *)I)->payload_len) :
          ((struct sk_buff *)arg0)->len - ((uintptr_t)I - (uintptr_t)((struct sk_buff *)arg0)->data) - 40;
  ip_saddr = I == NULL ? "<unknown>" :
      *(uint8_t *)I >> 4 == 4 ? inet_ntoa(&((struct iphdr *)I)->saddr) : inet_ntoa6(&((struct ipv6hdr *)I)->saddr);
  ip_daddr = I == NULL ? "<unknown>" :
      *(uint8_t *)I >> 4 == 4 ? inet_ntoa(&((struct iphdr *)I)->daddr) : inet_ntoa6(&((struct ipv6hdr *)I)->daddr);
};

/*
 * A segment that arrived, seen from its socket: tcp's connect-established, accept-established and
 * connect-refused fire on the socket's event, which the kernel's tracepoints pass without the
 * segment. It came from the remote end; its length is not known.
 */
translator ipinfo_t < struct sock *S > {
  ip_ver = S->__sk_common.skc_family == AF_INET ? 4 : 6;
  ip_saddr = sock_address_string[(uintptr_t)S, 1];
  ip_daddr = sock_address_string[(uintptr_t)S, 0];
};

/* IFF_LOOPBACK (linux/if.h) marks the loopback device. */
translator ifinfo_t < struct net_device *D > {
  if_name = stringof(D->name);
  if_local = (D->flags & 0x8) != 0;
  if_ipstack = D->nd_net.net->ns.inum;
  if_addr = (uintptr_t)D;
};

translator ipv4info_t < struct iphdr *I > {
  ipv4_ver = I != NULL ? I->version : 0;
  ipv4_ihl = I != NULL ? I->ihl * 4 : 0;
  ipv4_tos = I != NULL ? I->tos : 0;
  ipv4_length = I != NULL ? ntohs(I->tot_len) : 0;
  ipv4_ident = I != NULL ? ntohs(I->id) : 0;
  ipv4_flags = I != NULL ? (ntohs(I->frag_off) >> 12) & 0xe : 0;
  ipv4_offset = I != NULL ? ntohs(I->frag_off) & 0x1fff : 0;
  ipv4_ttl = I != NULL ? I->ttl : 0;
  ipv4_protocol = I != NULL ? I->protocol : 0;
  ipv4_protostr = I != NULL ? ip_protocol_string[I->protocol] : "<null>";
  ipv4_checksum = I != NULL ? ntohs(I->check) : 0;
  ipv4_src = I != NULL ? I->saddr : 0;
  ipv4_dst = I != NULL ? I->daddr : 0;
  ipv4_saddr = I != NULL ? inet_ntoa(&I->saddr) : "<null>";
  ipv4_daddr = I != NULL ? inet_ntoa(&I->daddr) : "<null>";
  ipv4_hdr = (ipha_t *)I;
};

/* The first 32 bits: version (4), traffic class (8), flow label (20). */
translator ipv6info_t < struct ipv6hdr *I > {
  ipv6_ver = I != NULL ? I->version : 0;
  ipv6_tclass = I != NULL ? (ntohl(*(uint32_t *)I) >> 20) & 0xff : 0;
  ipv6_flow = I != NULL ? ntohl(*(uint32_t *)I) & 0xfffff : 0;
  ipv6_plen = I != NULL ? ntohs(I->payload_len) : 0;
  ipv6_nexthdr = I != NULL ? I->nexthdr : 0;
  ipv6_nextstr = I != NULL ? ip_protocol_string[I->nexthdr] : "<null>";
  ipv6_hlim = I != NULL ? I->hop_limit : 0;
  ipv6_src = I != NULL ? (in6_addr_t *)&I->saddr : NULL;
  ipv6_dst = I != NULL ? (in6_addr_t *)&I->daddr : NULL;
  ipv6_saddr = I != NULL ? inet_ntoa6(&I->saddr) : "<null>";
  ipv6_daddr = I != NULL ? inet_ntoa6(&I->daddr) : "<null>";
  ipv6_hdr = (ip6_t *)I;
};
