// TCP sockets by their addresses and ports, for tcp:::receive: a segment arrives before the
// kernel looks its socket up, so the provider keeps its own table, learnt from the sockets'
// changes of state (inet_sock_set_state) once their ports are known, and from the SYN a
// connecting socket sends (the kernel reports the connect before it chooses the local port). It
// looks the arriving segment up in it as the kernel would: the connection, else a listener on its
// address, else a listener on any address. An entry can outlive its socket (the table is LRU and
// nothing removes entries, since a closing socket has often given its port back): a socket
// found is used only when it still has the segment's port and is not closed.
#pragma once

#include <llvm/IR/Value.h>

#include "lang/codegen/lowering.h"

namespace dsched::probes::net {

constexpr const char* kSetState = "tp_btf/inet_sock_set_state";  // (sk, oldstate, newstate)

// Learns the socket `sk` (the sent packet's, or 0) when it is a TCP socket in SYN_SENT.
void learn_connecting(codegen::Lowering& l, llvm::Value* sk, llvm::Value* ip, llvm::Value* is_ipv4,
                      llvm::Value* transport);
// In the inet_sock_set_state program: learns a TCP socket entering any state but CLOSE.
void learn_state(codegen::Lowering& l);
// The socket an arriving segment is for, or 0.
llvm::Value* find_receiver(codegen::Lowering& l, llvm::Value* ip, llvm::Value* is_ipv4, llvm::Value* transport);

}  // namespace dsched::probes::net
