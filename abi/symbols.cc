#include "abi/symbols.h"

#include <cstdio>

namespace dsched::abi {
namespace {

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace

std::string frame_text(const Symbol& symbol, uint64_t address) {
  if (symbol.function.empty()) return symbol.module.empty() ? hex(address) : symbol.module + "`" + hex(address);
  std::string text = symbol.module + "`" + symbol.function;
  if (address > symbol.start) text += "+" + hex(address - symbol.start);
  return text;
}

std::string function_text(const Symbol& symbol, uint64_t address) {
  if (symbol.function.empty()) return frame_text(symbol, address);
  return symbol.module + "`" + symbol.function;
}

std::string module_text(const Symbol& symbol, uint64_t address) {
  return symbol.module.empty() ? hex(address) : symbol.module;
}

}  // namespace dsched::abi
