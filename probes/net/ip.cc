// ip provider: every IPv4 and IPv6 packet sent or received, loopback included, with DTrace's
// pktinfo_t, csinfo_t, ipinfo_t, ifinfo_t, ipv4info_t and ipv6info_t arguments (stdlib/ip.d).
//   send     tp_btf/net_dev_queue: the packet is queued to its device
//   receive  tp_btf/netif_receive_skb: the packet is taken from its device
// Packets of other link-layer protocols (ARP, ...) do not fire.
#include "lang/provider.h"
#include "probes/net/packet.h"

namespace dsched::probes::net {
namespace {

class IpProvider : public lang::Provider {
 public:
  std::string_view name() const override { return "ip"; }
  lang::ProviderStability stability() const override {
    return {{"Evolving", "Evolving", "ISA"}, {"Evolving", "Evolving", "ISA"}};
  }

  std::vector<lang::Probe> probes() const override {
    auto probe = [&](const char* name) {
      return lang::Probe{0, "ip", "vmlinux", "", name, packet_args(Transport::Ip), "", this};
    };
    return {probe("receive"), probe("send")};
  }

  const codegen::Hook& hook(const lang::Probe& probe) const override {
    return probe.name == "send" ? send_ : receive_;
  }

 private:
  PacketHook send_{Direction::Send, Transport::Ip};
  PacketHook receive_{Direction::Receive, Transport::Ip};
};

const lang::RegisteredProvider<IpProvider> registered;

}  // namespace
}  // namespace dsched::probes::net
