#include "lang/kernel_symbols.h"

#include <algorithm>
#include <fstream>
#include <string_view>

namespace dsched::lang {

std::vector<std::optional<KernelSymbol>> kernel_symbols(const std::vector<std::string>& names, std::string* error) {
  std::vector<std::optional<KernelSymbol>> found(names.size());
  std::ifstream in("/proc/kallsyms");
  if (!in) {
    *error = "cannot read /proc/kallsyms";
    return found;
  }
  size_t missing = names.size();
  // Lines are "address type name [module]"; a symbol ends where the next line's begins.
  std::optional<KernelSymbol>* open = nullptr;  // found on the line before, its end not yet known
  for (std::string line; missing > 0 || open;) {
    if (!std::getline(in, line)) break;
    const uint64_t address = std::stoull(line.substr(0, line.find(' ')), nullptr, 16);
    if (open) {
      (*open)->end = address;
      open = nullptr;
    }
    const size_t name_at = line.find(' ', line.find(' ') + 1);
    if (name_at == std::string::npos) continue;
    const size_t name_end = std::min(line.find_first_of(" \t", name_at + 1), line.size());
    const std::string_view name = std::string_view(line).substr(name_at + 1, name_end - name_at - 1);
    for (size_t i = 0; i < names.size(); ++i) {
      if (found[i] || names[i] != name) continue;
      if (address == 0) {
        *error = "the kernel hides symbol addresses (kernel.kptr_restrict)";
        return std::vector<std::optional<KernelSymbol>>(names.size());
      }
      const char type = line[line.find(' ') + 1];
      found[i] = KernelSymbol{address, type == 't' || type == 'T', 0};
      open = &found[i];
      --missing;
      break;
    }
  }
  for (size_t i = 0; i < names.size() && error->empty(); ++i)
    if (!found[i]) *error = "/proc/kallsyms lists no kernel symbol " + names[i];
  return found;
}

std::optional<KernelSymbol> kernel_symbol(const std::string& name, std::string* error) {
  return kernel_symbols({name}, error).front();
}

}  // namespace dsched::lang
