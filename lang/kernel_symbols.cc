#include "lang/kernel_symbols.h"

#include <fstream>
#include <sstream>

namespace dsched::lang {

std::optional<KernelSymbol> kernel_symbol(const std::string& name, std::string* error) {
  std::ifstream in("/proc/kallsyms");
  if (!in) {
    *error = "cannot read /proc/kallsyms";
    return std::nullopt;
  }
  // Lines are "address type name [module]".
  for (std::string line; std::getline(in, line);) {
    size_t name_at = line.find(' ', line.find(' ') + 1);
    if (name_at == std::string::npos || line.compare(name_at + 1, name.size(), name) != 0) continue;
    size_t end = name_at + 1 + name.size();
    if (end != line.size() && line[end] != '\t' && line[end] != ' ') continue;
    uint64_t address = std::stoull(line.substr(0, line.find(' ')), nullptr, 16);
    if (address == 0) {
      *error = "the kernel hides symbol addresses (kernel.kptr_restrict)";
      return std::nullopt;
    }
    char type = line[line.find(' ') + 1];
    std::string next;
    uint64_t next_address = std::getline(in, next) ? std::stoull(next.substr(0, next.find(' ')), nullptr, 16) : 0;
    return KernelSymbol{address, type == 't' || type == 'T', next_address};
  }
  *error = "/proc/kallsyms lists no kernel symbol " + name;
  return std::nullopt;
}

}  // namespace dsched::lang
