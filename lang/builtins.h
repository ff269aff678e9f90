// D's built-in variables and typedefs.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "ast.h"

namespace dsched::lang {

std::optional<Builtin> find_builtin(const std::string& name);
// The C type of a built-in variable ("uint64_t", "struct task_struct *"); null for the
// translated ones (curlwpsinfo, curpsinfo, curcpu) and args, which sema types specially.
const char* builtin_type(Builtin builtin);

struct BuiltinTypedef {
  const char* name;
  uint8_t size;
  bool is_signed;
};
// Integer typedefs every D program may use (int64_t, pid_t, processorid_t...).
std::span<const BuiltinTypedef> builtin_typedefs();

}  // namespace dsched::lang
