// rawtp provider: every kernel tracepoint as rawtp:<subsystem>::<tracepoint>, with args[]
// typed by the tracepoint's own prototype in the kernel's BTF (btf_trace_<name>: the arguments
// after the hidden first one), as DTrace for Linux names them.
//   args[N]   the tracepoint's N-th argument with its kernel type (struct task_struct *, int...)
//   argN      the same value as an integer
// Probes fire on tp_btf/<name> (no tracefs needed to attach), so struct pointers are read with
// plain BTF-typed loads. BTF does not say which subsystem a tracepoint belongs to: the names
// come from tracefs (tracefs_events.h). Tracepoints without a trace event (bare DECLARE_TRACE
// hooks) have no subsystem and are not listed, as tracefs does not list them.
#include <linux/btf.h>

#include <cctype>

#include "lang/btf_types.h"
#include "lang/codegen/hook.h"
#include "lang/provider.h"
#include "lang/types.h"
#include "probes/rawtp/tracefs_events.h"

namespace dsched::probes {
namespace {

constexpr std::string_view kPrototypePrefix = "btf_trace_";

// How args[N] of a kernel type is named for the checker (which reads it back) and for -lv:
// integers by their C name, pointers to named structs and unions by their tag; what D cannot
// name (function pointers, anonymous records) as void *.
std::string d_type_name(lang::TypeUniverse& types, const lang::Type* type) {
  if (type->is_integer()) return lang::type_name(types.integer(type->size, type->is_signed));
  if (!type->is_pointer()) return "uint64_t";
  const lang::Type* target = type->target;
  if (target->is_record() && !target->name.empty()) return lang::type_name(type);
  if (target->is_integer() || target->is_pointer()) {
    std::string inner = d_type_name(types, target);
    return inner + (inner.back() == '*' ? "*" : " *");
  }
  return "void *";
}

class RawtpHook : public codegen::Hook {
 public:
  std::vector<std::string> sections(const lang::Probe& probe) const override {
    return {"tp_btf/" + probe.name};
  }
  llvm::Value* arg(codegen::Lowering& l, int index) const override {
    return codegen::tracepoint_arg(l, index);
  }
};

class RawtpProvider : public lang::Provider {
 public:
  std::string_view name() const override { return "rawtp"; }
  bool read_from_kernel() const override { return true; }
  // A tracepoint's name is a C identifier in lower case, and BTF has its prototype.
  bool could_name(std::string_view name) const override {
    for (char c : name)
      if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_'))
        return false;
    lang::TypeUniverse types(0);
    const lang::BtfTypes* btf = types.btf(nullptr);
    return !btf || btf->find(std::string(kPrototypePrefix) + std::string(name), BTF_KIND_TYPEDEF) != 0;
  }
  lang::ProviderStability stability() const override {
    return {lang::kEvolvingIsa, lang::kPrivateUnknown, lang::kPrivateUnknown, lang::kPrivateIsa, lang::kPrivateIsa};
  }

  std::vector<lang::Probe> probes() const override {
    std::string error;
    lang::TypeUniverse types(0);
    const lang::BtfTypes* btf = types.btf(&error);
    if (!btf) return {unreadable("cannot read the kernel's BTF: " + error)};
    TraceEvents events = read_trace_events();
    if (!events.error.empty()) return {unreadable(events.error)};
    std::vector<lang::Probe> list;
    for (auto [prototype, id] : btf->find_prefixed(kPrototypePrefix, BTF_KIND_TYPEDEF)) {
      std::string tracepoint(prototype.substr(kPrototypePrefix.size()));
      auto subsystem = events.subsystem_of.find(tracepoint);
      if (subsystem == events.subsystem_of.end()) continue;
      std::vector<uint32_t> params = btf->prototype_params(id);
      std::vector<lang::ProbeArg> args;
      for (size_t i = 1; i < params.size(); ++i)  // the first is the hook's private data
        args.push_back({d_type_name(types, btf->convert(params[i])), ""});
      list.push_back({0, "rawtp", subsystem->second, "", tracepoint, std::move(args), "", this});
    }
    return list;
  }

  const codegen::Hook& hook(const lang::Probe&) const override { return hook_; }

 private:
  // One probe that stands for all of them and says why none can be had.
  lang::Probe unreadable(const std::string& why) const {
    return {0, "rawtp", "", "", "*", {}, "rawtp: the kernel's tracepoints cannot be listed: " + why, this};
  }

  RawtpHook hook_;
};

const lang::RegisteredProvider<RawtpProvider> registered;

}  // namespace
}  // namespace dsched::probes
