// tcp provider: TCP segments and connections, with DTrace's pktinfo_t, csinfo_t, ipinfo_t,
// tcpsinfo_t and tcpinfo_t arguments (stdlib/ip.d, stdlib/tcp.d), and tcplsinfo_t (the previous
// state) in state-change.
//   send                 tp_btf/net_dev_queue: a segment is queued to its device
//   receive              tp_btf/netif_receive_skb: a segment is taken from its device, before
//                        the kernel looks its socket up: args[3] is found in the provider's own
//                        table of connections (connections.h)
//   connect-request      send of a SYN without ACK from a socket
//   accept-refused       send of a RST|ACK on behalf of no socket: the kernel's reply to a SYN
//                        for a port nobody listens on
//   state-change         tp_btf/inet_sock_set_state(sk, oldstate, newstate) of a TCP socket
//   connect-established  the same, SYN_SENT -> ESTABLISHED
//   accept-established   the same, SYN_RECV -> ESTABLISHED
//   connect-refused      tp_btf/tcp_receive_reset(sk) of a socket in SYN_SENT
// The probes on a socket event have no packet: args[0] is NULL there, and args[2] and args[4] too
// in state-change; connect-established, accept-established and connect-refused follow a segment
// that arrived, whose addresses and ports args[2] and args[4] give from the socket.
#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/programs.h"
#include "lang/provider.h"
#include "probes/net/packet.h"

namespace dsched::probes::net {
namespace {

using codegen::Lowering;
using codegen::tracepoint_arg;

// The kernel's TCP states (include/net/tcp_states.h).
constexpr int64_t kEstablished = 1, kSynSent = 2, kSynRecv = 3;
constexpr int64_t kSyn = 0x02, kRst = 0x04, kAck = 0x10;  // TH_*
constexpr int kNewStateArg = 6;  // arg6: the state being entered (stdlib/tcp.d)

constexpr const char* kSetState = "tp_btf/inet_sock_set_state";  // (sk, oldstate, newstate)
constexpr const char* kReceiveReset = "tp_btf/tcp_receive_reset";  // (sk)

// The probes that fire on a socket's event rather than a packet. One hook serves them all: the
// tracepoint's arguments are loaded once, at the program's start (a context load in a later
// block may reach the verifier through a moved context pointer, which it refuses), and handed to
// each firing in its binding: the socket, the previous state and the new one.
class SocketHook : public codegen::Hook {
 public:
  static bool follows_segment(const lang::Probe& probe) { return probe.name != "state-change"; }

  std::vector<std::string> sections(const lang::Probe& probe) const override {
    return {probe.name == "connect-refused" ? kReceiveReset : kSetState};
  }
  bool arg_is_btf(int index) const override { return index >= 1 && index <= 4; }

  llvm::Value* arg(Lowering& l, int index) const override {
    const std::vector<llvm::Value*>& bound = l.firing.binding().args;
    if (index == 1 || index == 3) return bound[kSocket];
    if ((index == 2 || index == 4) && follows_segment(l.firing.probe())) return bound[kSocket];
    if (index == 5) return bound[kOldState];
    return l.ir.const64(0);  // no packet
  }

  llvm::Value* raw_arg(Lowering& l, int n) const override {
    if (n == kNewStateArg) return l.firing.binding().args[kNewState];
    return Hook::raw_arg(l, n);
  }

  void emit(Lowering& l, const std::string& section, const std::vector<const lang::Probe*>& probes) const override {
    codegen::Ir& ir = l.ir;
    auto& b = ir.b();
    bool set_state = section == kSetState;
    llvm::Value* sk = tracepoint_arg(l, 0);
    llvm::Value* old_state = set_state ? state_arg(l, 1) : ir.const64(0);
    llvm::Value* new_state = set_state ? state_arg(l, 2) : ir.const64(0);
    llvm::Value* is_tcp = b.CreateICmpEQ(l.exprs.kernel_field(sk, "sock", {"sk_protocol"}), ir.const64(kIpprotoTcp));
    auto is = [&](llvm::Value* state, int64_t wanted) { return b.CreateICmpEQ(state, ir.const64(wanted)); };
    for (const lang::Probe* probe : probes) {
      const std::string& name = probe->name;
      llvm::Value* fires = is_tcp;
      if (name == "connect-established")
        fires = b.CreateAnd(fires, b.CreateAnd(is(old_state, kSynSent), is(new_state, kEstablished)));
      if (name == "accept-established")
        fires = b.CreateAnd(fires, b.CreateAnd(is(old_state, kSynRecv), is(new_state, kEstablished)));
      if (name == "connect-refused")
        fires = b.CreateAnd(fires, is(l.exprs.kernel_field(sk, "sock", {"__sk_common", "skc_state"}), kSynSent));
      ir.when(fires, [&] { l.programs.fire(*probe, {nullptr, nullptr, {sk, old_state, new_state}}); });
    }
  }

 private:
  enum Bound { kSocket, kOldState, kNewState };
  static llvm::Value* state_arg(Lowering& l, int slot) {
    return l.ir.b().CreateAnd(tracepoint_arg(l, slot), l.ir.const64(0xffffffff));
  }
};

class TcpProvider : public lang::Provider {
 public:
  std::string_view name() const override { return "tcp"; }

  std::vector<lang::Probe> probes() const override {
    auto probe = [&](const char* name) {
      return lang::Probe{0, "tcp", "vmlinux", "", name, packet_args(Transport::Tcp), "", this, std::nullopt};
    };
    lang::Probe state_change = probe("state-change");
    state_change.args.push_back({"int", "tcplsinfo_t *"});
    auto after_segment = [&](const char* name) {
      lang::Probe p = probe(name);
      p.args[2] = {"struct sock *", "ipinfo_t *"};
      p.args[4] = {"struct sock *", "tcpinfo_t *"};
      return p;
    };
    return {after_segment("accept-established"), probe("accept-refused"), after_segment("connect-established"),
            after_segment("connect-refused"),    probe("connect-request"), probe("receive"),
            probe("send"),                       state_change};
  }

  const codegen::Hook& hook(const lang::Probe& probe) const override {
    const std::string& name = probe.name;
    if (name == "send") return send_;
    if (name == "receive") return receive_;
    if (name == "connect-request") return connect_request_;
    if (name == "accept-refused") return accept_refused_;
    return socket_events_;
  }

 private:
  PacketHook send_{Direction::Send, Transport::Tcp};
  PacketHook receive_{Direction::Receive, Transport::Tcp};
  PacketHook connect_request_{Direction::Send, Transport::Tcp, {kSyn | kAck, kSyn, SocketWanted::Present}};
  PacketHook accept_refused_{Direction::Send, Transport::Tcp, {kRst | kAck, kRst | kAck, SocketWanted::Absent}};
  SocketHook socket_events_;
};

const lang::RegisteredProvider<TcpProvider> registered;

}  // namespace
}  // namespace dsched::probes::net
