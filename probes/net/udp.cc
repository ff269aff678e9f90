// udp provider: every UDP datagram sent or received over IPv4 or IPv6, with DTrace's pktinfo_t,
// csinfo_t, ipinfo_t, udpsinfo_t and udpinfo_t arguments (stdlib/ip.d, stdlib/udp.d).
//   send     tp_btf/net_dev_queue: the datagram's packet is queued to its device
//   receive  tp_btf/netif_receive_skb: the packet is taken from its device, before the socket is
//            looked up: args[3] is NULL there
// Only datagrams whose UDP header follows the IP header directly (no IPv6 extension headers)
// are seen.
#include "probes/net/packet.h"

namespace dsched::probes::net {
namespace {

class UdpProvider : public PacketProvider {
 public:
  UdpProvider() : PacketProvider("udp", Transport::Udp) {}
};

const lang::RegisteredProvider<UdpProvider> registered;

}  // namespace
}  // namespace dsched::probes::net
