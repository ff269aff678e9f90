// The integer typedefs every D program may use (int64_t, pid_t, processorid_t...).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <unordered_set>

namespace dsched::lang {

struct BuiltinTypedef {
  const char* name;
  uint8_t size;
  bool is_signed;
};
std::span<const BuiltinTypedef> builtin_typedefs();
// The names the lexer takes as types before any source declares one: those and caddr_t.
std::unordered_set<std::string> builtin_typedef_names();

}  // namespace dsched::lang
