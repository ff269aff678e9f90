// Addresses of kernel symbols, from /proc/kallsyms (read at compile time: dsched compiles on the
// machine it traces).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace dsched::lang {

// The address of kernel symbol `name`; nullopt with `error` set when it is unknown or the kernel
// hides addresses.
std::optional<uint64_t> kernel_symbol_address(const std::string& name, std::string* error);

}  // namespace dsched::lang
