// ip provider: every IPv4 and IPv6 packet sent or received, loopback included, with DTrace's
// pktinfo_t, csinfo_t, ipinfo_t, ifinfo_t, ipv4info_t and ipv6info_t arguments (stdlib/ip.d).
//   send     tp_btf/net_dev_queue: the packet is queued to its device
//   receive  tp_btf/netif_receive_skb: the packet is taken from its device
// Packets of other link-layer protocols (ARP, ...) do not fire.
#include "probes/net/packet.h"

namespace dsched::probes::net {
namespace {

class IpProvider : public PacketProvider {
 public:
  IpProvider() : PacketProvider("ip", Transport::Ip) {}
};

const lang::RegisteredProvider<IpProvider> registered;

}  // namespace
}  // namespace dsched::probes::net
