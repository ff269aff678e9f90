// The integer typedefs every D program may use (int64_t, pid_t, processorid_t...).
#pragma once

#include <cstdint>
#include <span>

namespace dsched::lang {

struct BuiltinTypedef {
  const char* name;
  uint8_t size;
  bool is_signed;
};
std::span<const BuiltinTypedef> builtin_typedefs();

}  // namespace dsched::lang
