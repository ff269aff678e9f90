// TCP sockets by their addresses and ports, for tcp:::receive: a segment arrives before the
// kernel looks its socket up, so the provider keeps its own table, learnt from the sockets'
// changes of state (inet_sock_set_state) once their ports are known, and looks the arriving
// segment up in it as the kernel would: the connection, else a listener on its address, else a
// listener on any address. The kernel reports a connect (CLOSED -> SYN_SENT) before it chooses
// the local port, so a connecting socket is known from ESTABLISHED on. Learning from sent
// segments instead would cost every sent packet a lookup, and its branches would multiply the
// verifier's paths through the clauses of tcp:::send. An entry can outlive its socket (the table
// is LRU and nothing removes entries, since a closing socket has often given its port back): a
// socket found is used only when it still has the segment's port and is not closed.
#pragma once

#include <llvm/IR/Value.h>

#include "lang/codegen/lowering.h"

namespace dsched::probes::net {

constexpr const char* kSetState = "tp_btf/inet_sock_set_state";  // (sk, oldstate, newstate)

// In the inet_sock_set_state program: learns a TCP socket entering any state but CLOSE.
void learn_state(codegen::Lowering& l);
// The socket an arriving segment is for, or 0.
llvm::Value* find_receiver(codegen::Lowering& l, llvm::Value* ip, llvm::Value* is_ipv4, llvm::Value* transport);

}  // namespace dsched::probes::net
