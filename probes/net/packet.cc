#include "probes/net/packet.h"

#include <linux/bpf.h>

#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/programs.h"
#include "probes/net/connections.h"

namespace dsched::probes::net {

using codegen::Lowering;
using codegen::tracepoint_arg;

namespace {

// skb->protocol, in network byte order as a little-endian load sees it.
constexpr int64_t kEthIpv4 = 0x0008;  // ETH_P_IP
constexpr int64_t kEthIpv6 = 0xdd86;  // ETH_P_IPV6
constexpr const char* kSend = "tp_btf/net_dev_queue";
constexpr const char* kReceive = "tp_btf/netif_receive_skb";
constexpr uint64_t kIpv6HeaderBytes = 40;
constexpr uint64_t kTcpFlagsOffset = 13;
// Socket states that are not full sockets (TCP_TIME_WAIT, TCP_NEW_SYN_RECV).
constexpr int64_t kTimeWait = 6, kNewSynRecv = 12;
constexpr int64_t kSockStream = 1, kSockDgram = 2;

llvm::Value* skb_field(Lowering& l, const std::vector<const char*>& path) {
  return l.exprs.kernel_field(tracepoint_arg(l, 0), "sk_buff", path);
}

// The IP version of the tracepoint's packet from its link-layer protocol (4, 6, or 0: not IP).
llvm::Value* ip_version(Lowering& l) {
  codegen::Ir& ir = l.ir;
  auto& b = ir.b();
  llvm::Value* protocol = skb_field(l, {"protocol"});
  return b.CreateSelect(b.CreateICmpEQ(protocol, ir.const64(kEthIpv4)), ir.const64(4),
                        b.CreateSelect(b.CreateICmpEQ(protocol, ir.const64(kEthIpv6)), ir.const64(6), ir.const64(0)));
}

}  // namespace

llvm::Value* read_or_zero(Lowering& l, llvm::Value* address, uint64_t size) {
  codegen::Ir& ir = l.ir;
  auto& b = ir.b();
  llvm::Value* slot = ir.stack_slot();
  b.CreateStore(ir.const64(0), slot);
  ir.helper(BPF_FUNC_probe_read_kernel, {slot, b.getInt64(size), b.CreateIntToPtr(address, ir.ptr())});
  return b.CreateZExt(b.CreateLoad(b.getIntNTy(unsigned(size * 8)), slot), ir.i64());
}


std::vector<lang::ProbeArg> packet_args(Transport transport) {
  std::vector<lang::ProbeArg> args{
      {"struct sk_buff *", "pktinfo_t *"}, {"struct sock *", "csinfo_t *"}, {"void_ip_t *", "ipinfo_t *"}};
  switch (transport) {
    case Transport::Ip:
      args.insert(args.end(), {{"struct net_device *", "ifinfo_t *"},
                               {"struct iphdr *", "ipv4info_t *"},
                               {"struct ipv6hdr *", "ipv6info_t *"}});
      break;
    case Transport::Tcp:
      args.insert(args.end(), {{"struct sock *", "tcpsinfo_t *"}, {"struct tcphdr *", "tcpinfo_t *"}});
      break;
    case Transport::Udp:
      args.insert(args.end(), {{"struct sock *", "udpsinfo_t *"}, {"struct udphdr *", "udpinfo_t *"}});
      break;
  }
  return args;
}

std::vector<std::string> PacketHook::sections(const lang::Probe&) const {
  if (finds_connections()) return {kReceive, kSend, kSetState};
  return {direction_ == Direction::Send ? kSend : kReceive};
}

std::string PacketHook::program_key(const lang::Probe&, const std::string& section) const {
  // Learning from sent SYNs is a program of its own: its branches would otherwise multiply the
  // verifier's paths through the clauses of the tcp:::send probes on the same tracepoint.
  return section == kSend && finds_connections() ? section + ":tcp_connections" : section;
}

PacketHook::Packet PacketHook::read_packet(Lowering& l, Direction direction) const {
  codegen::Ir& ir = l.ir;
  auto& b = ir.b();
  Packet packet;
  packet.version = ip_version(l);
  packet.is_ipv4 = b.CreateICmpEQ(packet.version, ir.const64(4));
  packet.ip = direction == Direction::Receive ? skb_field(l, {"data"})
                                              : b.CreateAdd(skb_field(l, {"head"}), skb_field(l, {"network_header"}));
  packet.wanted = b.CreateICmpNE(packet.version, ir.const64(0));
  if (transport_ == Transport::Ip) return packet;
  llvm::Value* protocol_at = b.CreateAdd(packet.ip, b.CreateSelect(packet.is_ipv4, ir.const64(9), ir.const64(6)));
  int64_t wanted = transport_ == Transport::Tcp ? kIpprotoTcp : kIpprotoUdp;
  packet.wanted = b.CreateAnd(packet.wanted, b.CreateICmpEQ(read_or_zero(l, protocol_at, 1), ir.const64(wanted)));
  llvm::Value* ipv4_length = b.CreateMul(b.CreateAnd(read_or_zero(l, packet.ip, 1), ir.const64(0xf)), ir.const64(4));
  packet.transport = b.CreateAdd(packet.ip, b.CreateSelect(packet.is_ipv4, ipv4_length, ir.const64(kIpv6HeaderBytes)));
  return packet;
}

llvm::Value* PacketHook::protocol_socket(Lowering& l) const {
  codegen::Ir& ir = l.ir;
  auto& b = ir.b();
  llvm::Value* sk = skb_field(l, {"sk"});
  llvm::Value* chosen = ir.stack_slot();
  b.CreateStore(ir.const64(0), chosen);
  // The verifier lets the socket's fields be read only once it is known not to be NULL.
  ir.when(b.CreateICmpNE(sk, ir.const64(0)), [&] {
    auto field = [&](const std::vector<const char*>& path) { return l.exprs.kernel_field(sk, "sock", path); };
    llvm::Value* state = field({"__sk_common", "skc_state"});
    // The kernel's control socket that sends replies on behalf of no connection (a reset to a
    // closed port) is a raw socket.
    llvm::Value* type = field({"sk_type"});
    llvm::Value* protocol = field({"sk_protocol"});
    bool tcp = transport_ == Transport::Tcp;
    int64_t wanted = tcp ? kIpprotoTcp : kIpprotoUdp;
    llvm::Value* full = b.CreateAnd(b.CreateICmpNE(state, ir.const64(kTimeWait)), b.CreateICmpNE(state, ir.const64(kNewSynRecv)));
    llvm::Value* ours = b.CreateAnd(b.CreateICmpEQ(type, ir.const64(tcp ? kSockStream : kSockDgram)),
                                    b.CreateICmpEQ(protocol, ir.const64(wanted)));
    ir.when(b.CreateAnd(full, ours), [&] { b.CreateStore(sk, chosen); });
  });
  return b.CreateLoad(ir.i64(), chosen);
}

// Everything is read once, before any probe fires, and the probes' arguments and conditions use
// those values: read again where each is used, every use would fork the verifier's paths anew
// (IPv4 or IPv6, a socket or none), and a few clauses would exceed its budget.
void PacketHook::emit(Lowering& l, const std::string& section, const std::vector<const lang::Probe*>& probes) const {
  codegen::Ir& ir = l.ir;
  auto& b = ir.b();
  if (section == kSetState) return learn_state(l);
  if (section == kSend && finds_connections()) {
    Packet packet = read_packet(l, Direction::Send);
    ir.when(packet.wanted, [&] { learn_connecting(l, skb_field(l, {"sk"}), packet.ip, packet.is_ipv4, packet.transport); });
    return;
  }
  Packet packet = read_packet(l, direction_);
  llvm::Value* fires = packet.wanted;
  std::vector<llvm::Value*> args{tracepoint_arg(l, 0), skb_field(l, {"sk"}), packet.ip};
  if (transport_ == Transport::Ip) {
    args.push_back(skb_field(l, {"dev"}));
    args.push_back(b.CreateSelect(packet.is_ipv4, packet.ip, ir.const64(0)));
    args.push_back(b.CreateSelect(packet.is_ipv4, ir.const64(0), packet.ip));
  } else {
    llvm::Value* socket = finds_connections() ? find_receiver(l, packet.ip, packet.is_ipv4, packet.transport) : protocol_socket(l);
    args.push_back(socket);
    args.push_back(packet.transport);
    if (filter_.flags_mask) {
      llvm::Value* flags = read_or_zero(l, b.CreateAdd(packet.transport, ir.const64(kTcpFlagsOffset)), 1);
      fires = b.CreateAnd(fires, b.CreateICmpEQ(b.CreateAnd(flags, ir.const64(filter_.flags_mask)), ir.const64(filter_.flags)));
    }
    if (filter_.socket != SocketWanted::Any) {
      llvm::Value* has_socket = b.CreateICmpNE(socket, ir.const64(0));
      fires = b.CreateAnd(fires, filter_.socket == SocketWanted::Present ? has_socket : b.CreateNot(has_socket));
    }
  }
  ir.when(fires, [&] {
    for (const lang::Probe* probe : probes) l.programs.fire(*probe, {nullptr, nullptr, args});
  });
}

llvm::Value* PacketHook::arg(Lowering& l, int index) const { return l.firing.binding().args.at(size_t(index)); }

std::vector<lang::Probe> PacketProvider::probes() const {
  auto probe = [&](const char* name) {
    return lang::Probe{0, name_, "vmlinux", "", name, packet_args(transport_), "", this, std::nullopt};
  };
  return {probe("receive"), probe("send")};
}

const codegen::Hook& PacketProvider::hook(const lang::Probe& probe) const {
  return probe.name == "send" ? send_ : receive_;
}

}  // namespace dsched::probes::net
