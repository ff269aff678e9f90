#include "probes/net/connections.h"

#include <linux/bpf.h>

#include "lang/codegen/exprs.h"
#include "lang/codegen/hook.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/maps.h"
#include "lang/diagnostics.h"
#include "lang/program.h"
#include "probes/net/packet.h"

namespace dsched::probes::net {
namespace {

using codegen::Ir;
using codegen::Lowering;
using codegen::tracepoint_arg;

// The key: local address, remote address (16 bytes each; IPv4 in the first 4), local and remote
// port (network order), IP version.
constexpr uint64_t kLocal = 0, kRemote = 16, kPorts = 32, kVersion = 36, kKeyBytes = 40;
constexpr uint32_t kConnections = 8192;
constexpr int64_t kSynSent = 2, kClose = 7, kTcp = 6, kAfInet = 2;
// Where the IPv4 and IPv6 headers hold their source and destination addresses.
constexpr int64_t kIpv4Source = 12, kIpv4Destination = 16, kIpv6Source = 8, kIpv6Destination = 24;

llvm::GlobalVariable* table(Lowering& l) {
  return l.maps.hook_map({"tcp_connections", BPF_MAP_TYPE_LRU_HASH, kConnections, uint32_t(kKeyBytes), 8, 0, false});
}

llvm::Value* new_key(Lowering& l) {
  Ir& ir = l.ir;
  llvm::Value* key = ir.entry_alloca(llvm::ArrayType::get(ir.i8(), kKeyBytes));
  ir.zero_bytes(key, kKeyBytes);
  return key;
}

void read_into(Lowering& l, llvm::Value* key, uint64_t offset, uint64_t size, llvm::Value* address) {
  Ir& ir = l.ir;
  ir.helper(BPF_FUNC_probe_read_kernel, {ir.offset_ptr(key, offset), ir.b().getInt64(size), ir.b().CreateIntToPtr(address, ir.ptr())});
}

void store32(Lowering& l, llvm::Value* key, uint64_t offset, llvm::Value* value) {
  auto& b = l.ir.b();
  b.CreateStore(b.CreateTrunc(value, b.getInt32Ty()), l.ir.offset_ptr(key, offset));
}

// A segment's addresses and ports into the key, its source or its destination being local.
void key_from_segment(Lowering& l, llvm::Value* key, llvm::Value* ip, llvm::Value* is_ipv4, llvm::Value* transport,
                      bool local_is_source) {
  Ir& ir = l.ir;
  auto& b = ir.b();
  auto addresses = [&](int64_t source, int64_t destination, uint64_t size) {
    llvm::Value* from = b.CreateAdd(ip, ir.const64(source));
    llvm::Value* to = b.CreateAdd(ip, ir.const64(destination));
    read_into(l, key, kLocal, size, local_is_source ? from : to);
    read_into(l, key, kRemote, size, local_is_source ? to : from);
  };
  ir.when(is_ipv4, [&] { addresses(kIpv4Source, kIpv4Destination, 4); });
  ir.when(b.CreateNot(is_ipv4), [&] { addresses(kIpv6Source, kIpv6Destination, 16); });
  // The header has the source port, then the destination port: local first.
  llvm::Value* ports = read_or_zero(l, transport, 4);
  if (!local_is_source)
    ports = b.CreateAnd(b.CreateOr(b.CreateLShr(ports, ir.const64(16)), b.CreateShl(ports, ir.const64(16))),
                        ir.const64(0xffffffff));
  store32(l, key, kPorts, ports);
  store32(l, key, kVersion, b.CreateSelect(is_ipv4, ir.const64(4), ir.const64(6)));
}

void remember(Lowering& l, llvm::Value* key, llvm::Value* socket) {
  Ir& ir = l.ir;
  llvm::Value* value = ir.stack_slot();
  ir.b().CreateStore(socket, value);
  ir.helper(BPF_FUNC_map_update_elem, {table(l), key, value, ir.const64(BPF_ANY)});
}

uint64_t sock_common_offset(Lowering& l, const char* member) {
  const lang::Type* record = l.program.types->kernel_record(lang::TypeKind::Struct, "sock_common", nullptr);
  auto found = record ? record->find_member(member) : std::nullopt;
  if (!found) lang::fail({}, lang::ErrTag::D_UNKNOWN, std::string("this kernel's sock_common has no member ") + member);
  return found->offset_bits / 8;
}

}  // namespace

void learn_connecting(Lowering& l, llvm::Value* sk, llvm::Value* ip, llvm::Value* is_ipv4, llvm::Value* transport) {
  Ir& ir = l.ir;
  auto& b = ir.b();
  ir.when(b.CreateICmpNE(sk, ir.const64(0)), [&] {
    auto field = [&](const std::vector<const char*>& path) { return l.exprs.kernel_field(sk, "sock", path); };
    llvm::Value* connecting = b.CreateAnd(b.CreateICmpEQ(field({"sk_protocol"}), ir.const64(kTcp)),
                                          b.CreateICmpEQ(field({"__sk_common", "skc_state"}), ir.const64(kSynSent)));
    ir.when(connecting, [&] {
      llvm::Value* key = new_key(l);
      key_from_segment(l, key, ip, is_ipv4, transport, true);
      remember(l, key, sk);
    });
  });
}

void learn_state(Lowering& l) {
  Ir& ir = l.ir;
  auto& b = ir.b();
  llvm::Value* sk = tracepoint_arg(l, 0);
  llvm::Value* new_state = b.CreateAnd(tracepoint_arg(l, 2), ir.const64(0xffffffff));
  auto field = [&](const std::vector<const char*>& path) { return l.exprs.kernel_field(sk, "sock", path); };
  llvm::Value* port = field({"__sk_common", "skc_num"});
  llvm::Value* wanted = b.CreateAnd(b.CreateICmpEQ(field({"sk_protocol"}), ir.const64(kTcp)),
                                    b.CreateAnd(b.CreateICmpNE(new_state, ir.const64(kClose)),
                                                b.CreateICmpNE(port, ir.const64(0))));
  ir.when(wanted, [&] {
    llvm::Value* key = new_key(l);
    llvm::Value* is_ipv4 = b.CreateICmpEQ(field({"__sk_common", "skc_family"}), ir.const64(kAfInet));
    auto address = [&](const char* member) { return b.CreateAdd(sk, ir.const64(int64_t(sock_common_offset(l, member)))); };
    ir.when(is_ipv4, [&] {
      read_into(l, key, kLocal, 4, address("skc_rcv_saddr"));
      read_into(l, key, kRemote, 4, address("skc_daddr"));
    });
    ir.when(b.CreateNot(is_ipv4), [&] {
      read_into(l, key, kLocal, 16, address("skc_v6_rcv_saddr"));
      read_into(l, key, kRemote, 16, address("skc_v6_daddr"));
    });
    // skc_num is in host order, skc_dport in network order.
    llvm::Value* local_port = b.CreateOr(b.CreateLShr(port, ir.const64(8)), b.CreateAnd(b.CreateShl(port, ir.const64(8)), ir.const64(0xff00)));
    llvm::Value* remote_port = field({"__sk_common", "skc_dport"});
    store32(l, key, kPorts, b.CreateOr(local_port, b.CreateShl(remote_port, ir.const64(16))));
    store32(l, key, kVersion, b.CreateSelect(is_ipv4, ir.const64(4), ir.const64(6)));
    remember(l, key, sk);
  });
}

llvm::Value* find_receiver(Lowering& l, llvm::Value* ip, llvm::Value* is_ipv4, llvm::Value* transport) {
  Ir& ir = l.ir;
  auto& b = ir.b();
  llvm::Value* key = new_key(l);
  key_from_segment(l, key, ip, is_ipv4, transport, false);
  llvm::Value* found = ir.stack_slot();
  b.CreateStore(ir.const64(0), found);
  auto lookup = [&] {
    ir.when(b.CreateICmpEQ(b.CreateLoad(ir.i64(), found), ir.const64(0)), [&] {
      llvm::Value* value = ir.helper(BPF_FUNC_map_lookup_elem, {table(l), key});
      ir.when(b.CreateICmpNE(value, ir.const64(0)),
              [&] { b.CreateStore(b.CreateLoad(ir.i64(), b.CreateIntToPtr(value, ir.ptr())), found); });
    });
  };
  lookup();  // the connection
  ir.zero_bytes(ir.offset_ptr(key, kRemote), 16);
  store32(l, key, kPorts, b.CreateAnd(b.CreateLoad(b.getInt32Ty(), ir.offset_ptr(key, kPorts)), b.getInt32(0xffff)));
  lookup();  // a listener on the segment's destination address
  ir.zero_bytes(ir.offset_ptr(key, kLocal), 16);
  lookup();  // a listener on any address
  // Still that port's socket, not closed since.
  llvm::Value* sk = b.CreateLoad(ir.i64(), found);
  llvm::Value* chosen = ir.stack_slot();
  b.CreateStore(ir.const64(0), chosen);
  ir.when(b.CreateICmpNE(sk, ir.const64(0)), [&] {
    llvm::Value* port = read_or_zero(l, b.CreateAdd(sk, ir.const64(int64_t(sock_common_offset(l, "skc_num")))), 2);
    llvm::Value* state = read_or_zero(l, b.CreateAdd(sk, ir.const64(int64_t(sock_common_offset(l, "skc_state")))), 1);
    llvm::Value* destination = read_or_zero(l, b.CreateAdd(transport, ir.const64(2)), 2);
    llvm::Value* host_order = b.CreateOr(b.CreateLShr(destination, ir.const64(8)),
                                         b.CreateAnd(b.CreateShl(destination, ir.const64(8)), ir.const64(0xff00)));
    ir.when(b.CreateAnd(b.CreateICmpEQ(port, host_order), b.CreateICmpNE(state, ir.const64(kClose))),
            [&] { b.CreateStore(sk, chosen); });
  });
  return b.CreateLoad(ir.i64(), chosen);
}

}  // namespace dsched::probes::net
