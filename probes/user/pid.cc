// pid provider: pid1234:module:function:entry, :return and :<offset> (hex, from the function's
// start), on uprobes in process 1234 only. Modules are the executable ("a.out" names it too) and
// the shared objects the process maps; functions come from their symbol tables. An entry or offset
// probe's arg0..argN are the function's integer arguments (the System V ABI's registers, then the
// stack); a return probe's arg1 is the return value and arg0 the address the function returns to
// (DTrace gives the returning instruction's offset, which a uretprobe cannot tell).
#include <cinttypes>
#include <cstdio>
#include <set>

#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/user_registers.h"
#include "probes/user/instructions.h"
#include "probes/user/user_probes.h"

namespace dsched::probes {
namespace {

// The last argument DTrace's argN reaches.
constexpr int kLastArg = 9;

class PidHook : public UprobeHook {
 public:
  llvm::Value* raw_arg(codegen::Lowering& l, int n) const override {
    codegen::Ir& ir = l.ir;
    if (l.firing.probe().user_site->is_return) {
      if (n == 0) return codegen::user_register(l, codegen::kRegisterIp);
      return n == 1 ? codegen::user_register(l, codegen::kRegisterAx) : ir.const64(0);
    }
    if (int word = codegen::argument_register_word(n); word >= 0) return codegen::user_register(l, word);
    if (n > kLastArg) return ir.const64(0);
    // The seventh argument on is on the stack, above the return address.
    llvm::Value* sp = codegen::user_register(l, codegen::kRegisterSp);
    return l.exprs.read_user(ir.b().CreateAdd(sp, ir.const64(8 * (n - 5))), 8, l.program.types->integer(8, false));
  }
};

std::string hex(uint64_t value) {
  char text[32];
  std::snprintf(text, sizeof text, "%" PRIx64, value);
  return text;
}

// The first byte of a VEX (C4, C5) or EVEX (62) encoded instruction in 64-bit code. The kernel
// refuses uprobes on some of them and mis-executes others out of line (a probe on an EVEX
// instruction corrupts the program's registers), so none gets a probe.
bool is_vector_extension(uint8_t first) { return first == 0x62 || first == 0xc4 || first == 0xc5; }

// Why an IFUNC symbol gets no probe: it is the resolver, run once as the program is linked, and
// the calls go to the implementation it picked (named here, where the names tell).
std::string ifunc_reason(const lang::Probe& probe, const std::vector<lang::UserFunction>& functions) {
  std::string reason = probe.full_name() + " cannot be enabled: " + probe.function +
                       " is an IFUNC, whose code only picks an implementation when the program is linked";
  std::string candidates;
  int named = 0;
  for (const lang::UserFunction& f : functions) {
    if (f.ifunc || f.name == probe.function || f.name.find(probe.function) == std::string::npos) continue;
    if (named++ == 6) break;
    candidates += (candidates.empty() ? "" : ", ") + f.name;
  }
  return candidates.empty() ? reason : reason + "; probe the implementations instead (" + candidates + ")";
}

// Functions entered without a call: by the kernel (_start, a signal's return trampoline) or by a
// jump from the PLT (the dynamic linker's lazy binding). A return probe takes the word on top of
// the stack at entry for the return address and replaces it, corrupting what is there instead
// (argc, a relocation index).
bool entered_without_call(std::string_view name) {
  return name == "_start" || name == "_dl_start_user" || name == "__restore_rt" ||
         name.starts_with("_dl_runtime_resolve") || name.starts_with("_dl_runtime_profile");
}

// An offset named exactly ("1c"); nullopt when the name is not hexadecimal.
std::optional<uint64_t> exact_offset(const std::string& name) {
  if (name.empty() || name.size() > 16 || name.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
    return std::nullopt;
  return std::stoull(name, nullptr, 16);
}

class PidProvider : public lang::Provider {
 public:
  std::string_view name() const override { return "pid"; }
  lang::ProviderStability stability() const override {
    return {lang::kEvolvingIsa, lang::kPrivateUnknown, lang::kPrivateUnknown, lang::kEvolvingIsa, lang::kPrivateUnknown};
  }
  std::vector<lang::Probe> probes() const override { return {}; }
  const codegen::Hook& hook(const lang::Probe&) const override { return hook_; }
  bool in_processes() const override { return true; }

  std::vector<lang::Probe> process_probes(const lang::DescriptionFields& d, lang::ProcessImages& images,
                                          std::string& error) const override {
    std::optional<long> pid = process_of(d.provider, "pid");
    if (!pid) return {};
    std::string reason;
    std::vector<lang::ProcessModule> modules = images.modules(*pid, reason);
    if (modules.empty()) {
      error = grab_error(*pid, reason.empty() ? "it maps no executable file" : reason);
      return {};
    }
    std::vector<lang::Probe> made;
    for (const lang::ProcessModule& module : modules) {
      if (!d.module.empty() && !module_matches(d.module, module)) continue;
      std::set<uint64_t> seen;  // aliases name one function once
      for (const lang::UserFunction& function : images.functions(module)) {
        if (!lang::field_matches(d.function, function.name) || !seen.insert(function.address).second) continue;
        add_function_probes(d, *pid, module, function, images, made, error);
        if (!error.empty()) return {};
      }
    }
    return made;
  }

 private:
  void add_function_probes(const lang::DescriptionFields& d, long pid, const lang::ProcessModule& module,
                           const lang::UserFunction& function, lang::ProcessImages& images,
                           std::vector<lang::Probe>& made, std::string& error) const {
    std::string code = images.code(module, function);
    auto add = [&](std::string name, uint64_t offset, bool is_return) {
      lang::Probe probe{0, "pid" + std::to_string(pid), module.name, function.name, std::move(name), {}, "", this};
      probe.user_site = lang::UserSite{pid, module.path, function.file_offset + offset, is_return, 0, {}};
      if (function.ifunc)
        probe.unsupported = ifunc_reason(probe, images.functions(module));
      else if (is_return && entered_without_call(function.name))
        probe.unsupported = probe.full_name() + " cannot be enabled: " + function.name +
                            " is entered without a call, so it has no return address to take over";
      else if (offset < code.size() && is_vector_extension(uint8_t(code[offset])))
        probe.unsupported = probe.full_name() + " cannot be enabled: uprobes do not execute AVX (VEX or EVEX "
                            "encoded) instructions faithfully, and one is there";
      made.push_back(std::move(probe));
    };
    for (const char* name : {"entry", "return"})
      if (lang::field_matches(d.name, name)) add(name, 0, std::string_view(name) == "return");
    std::optional<uint64_t> named = lang::is_glob(d.name) ? std::nullopt : exact_offset(d.name);
    if (!d.name.empty() && !lang::is_glob(d.name) && !named) return;
    if (named && function.size && *named >= function.size) {
      error = "offset 0x" + hex(*named) + " is beyond the end of " + module.name + "`" + function.name;
      return;
    }
    std::vector<uint64_t> offsets = instruction_offsets(code, function.address);
    if (named) {
      if (!std::binary_search(offsets.begin(), offsets.end(), *named)) {
        error = "offset 0x" + hex(*named) + " of " + module.name + "`" + function.name +
                " is not at the start of an instruction";
        return;
      }
      add(hex(*named), *named, false);
      return;
    }
    for (uint64_t offset : offsets)
      if (lang::field_matches(d.name, hex(offset))) add(hex(offset), offset, false);
  }

  PidHook hook_;
};

const lang::RegisteredProvider<PidProvider> registered;

}  // namespace
}  // namespace dsched::probes
