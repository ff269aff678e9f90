// profile provider: profile-N fires on every CPU and tick-N on one, at any rate (DTrace's units:
// ns, us, ms, s, m, h, d, hz; a bare number is hz), on cpu-clock perf events. The listed rates are
// the common ones. arg0 is the kernel PC when the timer interrupted the kernel, arg1 the user PC
// when it interrupted user space; there are no typed arguments.
#include <cstdlib>

#include "abi/options.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/hook.h"
#include "lang/codegen/ir.h"
#include "lang/provider.h"

namespace dsched::probes {
namespace {

// x86-64 struct pt_regs, the start of struct bpf_perf_event_data.
constexpr uint64_t kRegsIp = 16 * 8;
constexpr uint64_t kRegsCs = 17 * 8;

// The interval of a rate ("997", "997hz", "10sec", "1ms") in nanoseconds; 0 if it is not one. As
// in DTrace's profile provider, the number is decimal.
uint64_t parse_rate(std::string_view text) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0 || digits > 12) return 0;
  uint64_t number = std::strtoull(std::string(text.substr(0, digits)).c_str(), nullptr, 10);
  return uint64_t(abi::rate_interval(number, text.substr(digits)).value_or(0));
}

// DTrace's shortest interval: faster timers would take the CPUs and flood the output buffer.
constexpr uint64_t kShortestPeriodNs = 200000;

bool on_every_cpu(const lang::Probe& probe) { return probe.name.starts_with("profile-"); }
uint64_t period_of(const lang::Probe& probe) { return parse_rate(probe.name.substr(probe.name.find('-') + 1)); }

class TimerHook : public codegen::Hook {
 public:
  std::vector<std::string> sections(const lang::Probe&) const override { return {"perf_event"}; }
  abi::AttachPoint::Kind attach_kind() const override { return abi::AttachPoint::Kind::PerfTimer; }
  uint64_t period_ns(const lang::Probe& probe) const override { return period_of(probe); }
  bool every_cpu(const lang::Probe& probe) const override { return on_every_cpu(probe); }
  llvm::Value* raw_arg(codegen::Lowering& l, int n) const override {
    if (n > 1) return l.ir.const64(0);
    auto& b = l.ir.b();
    llvm::Value* ip = b.CreateLoad(l.ir.i64(), l.ir.offset_ptr(l.firing.context(), kRegsIp), /*isVolatile=*/true);
    llvm::Value* cs = b.CreateLoad(l.ir.i64(), l.ir.offset_ptr(l.firing.context(), kRegsCs), /*isVolatile=*/true);
    llvm::Value* user = b.CreateICmpNE(b.CreateAnd(cs, l.ir.const64(3)), l.ir.const64(0));
    return n == 0 ? b.CreateSelect(user, l.ir.const64(0), ip) : b.CreateSelect(user, ip, l.ir.const64(0));
  }
};

class ProfileProvider : public lang::Provider {
 public:
  std::string_view name() const override { return "profile"; }
  lang::ProviderStability stability() const override {
    constexpr lang::Attributes kUnstableUnknown{lang::StabilityLevel::Unstable, lang::StabilityLevel::Unstable,
                                                lang::DependencyClass::Unknown};
    return {lang::kEvolvingCommon, kUnstableUnknown, lang::kPrivateUnknown, lang::kEvolvingCommon, lang::kEvolvingCommon};
  }
  std::vector<lang::Probe> probes() const override {
    std::vector<lang::Probe> list;
    for (const char* name : {"profile-97", "profile-199", "profile-499", "profile-997", "profile-1999", "profile-4001",
                             "profile-4999", "tick-1", "tick-10", "tick-100", "tick-500", "tick-1000", "tick-5000",
                             "tick-1sec", "tick-10sec"})
      list.push_back(probe(name));
    return list;
  }
  std::optional<lang::Probe> probe_named(std::string_view name) const override {
    if (!name.starts_with("profile-") && !name.starts_with("tick-")) return std::nullopt;
    lang::Probe made = probe(std::string(name));
    uint64_t period = period_of(made);
    if (period == 0) return std::nullopt;
    if (period < kShortestPeriodNs)
      made.unsupported = "profile:::" + made.name + " fires more often than every 200 microseconds, the shortest "
                         "interval of the profile provider";
    return made;
  }
  const codegen::Hook& hook(const lang::Probe&) const override { return hook_; }

 private:
  lang::Probe probe(std::string name) const { return {0, "profile", "", "", std::move(name), {}, "", this}; }
  TimerHook hook_;
};

const lang::RegisteredProvider<ProfileProvider> registered;

}  // namespace
}  // namespace dsched::probes
