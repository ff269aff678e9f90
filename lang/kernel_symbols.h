// Addresses of kernel symbols, from /proc/kallsyms (read at compile time: dsched compiles on the
// machine it traces).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dsched::lang {

struct KernelSymbol {
  uint64_t address;
  bool function;  // in the kernel's text (kallsyms type t or T)
  uint64_t end;   // where the next listed symbol starts (0 for the last): a function's end
};

// Kernel symbol `name`; nullopt with `error` set when it is unknown or the kernel hides
// addresses.
std::optional<KernelSymbol> kernel_symbol(const std::string& name, std::string* error);
// Several symbols in one reading of kallsyms; `error` names the first not found.
std::vector<std::optional<KernelSymbol>> kernel_symbols(const std::vector<std::string>& names, std::string* error);

}  // namespace dsched::lang
