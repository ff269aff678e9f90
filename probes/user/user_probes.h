// What the providers of probes in processes (pid, USDT) share: the process a provider field names
// ("pid1234", "myprov1234"), which of its files a module field names, and the uprobe hook.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "lang/codegen/hook.h"
#include "lang/process_images.h"
#include "lang/provider.h"

namespace dsched::probes {

// 1234 for "pid1234" and prefix "pid"; nullopt when `field` is not the prefix and then digits.
std::optional<long> process_of(std::string_view field, std::string_view prefix);

// Whether a description's module field names `module`: "a.out" names the program; a name without
// a '.' also names the shared objects it starts ("libc" names "libc.so.6").
bool module_matches(const std::string& pattern, const lang::ProcessModule& module);

// "failed to grab pid 1234: No such process", as DTrace says it.
std::string grab_error(long pid, const std::string& reason);

// A probe fired by a uprobe (or uretprobe) at its user site, in its process only. The program's
// context is the thread's user registers.
class UprobeHook : public codegen::Hook {
 public:
  std::vector<std::string> sections(const lang::Probe& probe) const override;
  abi::AttachPoint::Kind attach_kind() const override { return abi::AttachPoint::Kind::Uprobe; }
  void place(const lang::Probe& probe, abi::AttachPoint& point) const override;
  bool context_is_user_registers() const override { return true; }
  bool arg_is_btf(int) const override { return false; }
};

}  // namespace dsched::probes
