// What the ip, tcp and udp providers share: the tracepoints a packet passes on its way out and in,
// a hook that fires a probe for each IP packet there, with DTrace's packet arguments, and the
// provider of ip and udp, which have only those probes.
//   send     tp_btf/net_dev_queue(skb): a packet queued to a device (loopback included); the
//            IP header is at skb->head + skb->network_header
//   receive  tp_btf/netif_receive_skb(skb): a packet taken from a device, before the IP layer;
//            the IP header is at skb->data (the link-layer header is already pulled)
#pragma once

#include <cstdint>

#include "lang/codegen/hook.h"
#include "lang/provider.h"

namespace dsched::probes::net {

enum class Direction { Send, Receive };

// Which packets a probe wants: IP (any protocol), or one transport protocol.
enum class Transport { Ip, Tcp, Udp };

// The socket a packet probe's args[3] is: any the packet has (ip), or the full socket of the
// probe's protocol, NULL when there is none.
enum class SocketWanted { Any, Present, Absent };

// Extra conditions on a TCP segment (connect-request: a SYN from a socket; accept-refused: a
// reset and acknowledgement sent on behalf of no socket).
struct SegmentFilter {
  int64_t flags_mask = 0;
  int64_t flags = 0;
  SocketWanted socket = SocketWanted::Any;
};

constexpr int64_t kIpprotoTcp = 6;
constexpr int64_t kIpprotoUdp = 17;

// args[] of a packet probe:
//   ip       [0] struct sk_buff *, [1] struct sock *, [2] void_ip_t *, [3] struct net_device *,
//            [4] struct iphdr * (NULL for IPv6), [5] struct ipv6hdr * (NULL for IPv4)
//   tcp/udp  [0] to [2] as ip, [3] struct sock * (the protocol's socket, or NULL; tcp:::receive:
//            the socket it arrives for, from connections.h), [4] struct tcphdr * / struct udphdr *
class PacketHook : public codegen::Hook {
 public:
  PacketHook(Direction direction, Transport transport, SegmentFilter filter = {})
      : direction_(direction), transport_(transport), filter_(filter) {}
  std::vector<std::string> sections(const lang::Probe&) const override;
  std::string program_key(const lang::Probe& probe, const std::string& section) const override;
  void emit(codegen::Lowering& l, const std::string& section, const std::vector<const lang::Probe*>& probes) const override;
  llvm::Value* arg(codegen::Lowering& l, int index) const override;
  // Only the socket buffer is the tracepoint's own BTF-typed argument; headers lie in packet
  // data, and sockets are read with checked reads.
  bool arg_is_btf(int index) const override { return index == 0; }

 private:
  // What a program reads of its packet, once.
  struct Packet {
    llvm::Value* version = nullptr;    // 4, 6, or 0: not IP
    llvm::Value* is_ipv4 = nullptr;
    llvm::Value* ip = nullptr;         // the IP header
    llvm::Value* transport = nullptr;  // the TCP or UDP header (tcp and udp)
    llvm::Value* wanted = nullptr;     // IP, and of the probe's protocol
  };
  Packet read_packet(codegen::Lowering& l, Direction direction) const;
  // tcp:::receive names the socket a segment arrives for from the table of connections.
  bool finds_connections() const { return direction_ == Direction::Receive && transport_ == Transport::Tcp; }
  llvm::Value* protocol_socket(codegen::Lowering& l) const;

  Direction direction_;
  Transport transport_;
  SegmentFilter filter_;
};

// A provider of just send and receive, each a packet probe of one transport (ip, udp).
class PacketProvider : public lang::Provider {
 public:
  PacketProvider(const char* name, Transport transport)
      : name_(name), transport_(transport), send_(Direction::Send, transport), receive_(Direction::Receive, transport) {}
  std::string_view name() const override { return name_; }
  std::vector<lang::Probe> probes() const override;
  const codegen::Hook& hook(const lang::Probe& probe) const override;

 private:
  const char* name_;
  Transport transport_;
  PacketHook send_, receive_;
};

// DTrace's argument types of a packet probe, with the native values PacketHook gives them.
std::vector<lang::ProbeArg> packet_args(Transport transport);

// `size` bytes of kernel memory at `address`; 0 when the address cannot be read.
llvm::Value* read_or_zero(codegen::Lowering& l, llvm::Value* address, uint64_t size);

}  // namespace dsched::probes::net
