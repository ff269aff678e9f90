// The running kernel's functions, from the text of /proc/kallsyms and /proc/modules.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "abi/symbols.h"
#include "runtime/symbols/address_table.h"

namespace dsched::symbols {

class KernelSymbols {
 public:
  // `kallsyms` lines are "address type name [module]"; `modules` lines (/proc/modules) are
  // "name size refs deps state address", and bound the last function of each module.
  KernelSymbols(std::string_view kallsyms, std::string_view modules);

  // The kernel lists every address as zero to those kernel.kptr_restrict keeps them from.
  bool addresses_hidden() const { return addresses_hidden_; }
  size_t size() const { return table_.size(); }

  // Module and function of a kernel text address; empty past the kernel's text and outside modules.
  abi::Symbol find(uint64_t address) const;

 private:
  AddressTable table_;
  std::vector<std::string> modules_;  // index 0 is "vmlinux"
  bool addresses_hidden_ = true;
};

}  // namespace dsched::symbols
