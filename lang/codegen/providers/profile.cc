// profile-N (every CPU) and tick-N (one CPU) on cpu-clock perf events. arg0 is the kernel PC
// when the timer interrupted the kernel, arg1 the user PC when it interrupted user space.
#include <linux/bpf.h>

#include "lang/codegen/generator.h"
#include "lang/codegen/hooks.h"

namespace dsched::codegen {
namespace {

// x86-64 struct pt_regs, the start of struct bpf_perf_event_data.
constexpr uint64_t kRegsIp = 16 * 8;
constexpr uint64_t kRegsCs = 17 * 8;

class TimerHook : public Hook {
 public:
  std::string section(const probes::Probe&) const override { return "perf_event"; }
  AttachPoint::Kind attach_kind() const override { return AttachPoint::Kind::PerfTimer; }
  llvm::Value* raw_arg(Generator& g, int n) const override {
    if (n > 1) return g.const64(0);
    auto& b = g.b();
    llvm::Value* ip = b.CreateLoad(g.i64(), g.offset_ptr(g.context(), kRegsIp), /*isVolatile=*/true);
    llvm::Value* cs = b.CreateLoad(g.i64(), g.offset_ptr(g.context(), kRegsCs), /*isVolatile=*/true);
    llvm::Value* user = b.CreateICmpNE(b.CreateAnd(cs, g.const64(3)), g.const64(0));
    return n == 0 ? b.CreateSelect(user, g.const64(0), ip) : b.CreateSelect(user, ip, g.const64(0));
  }
};

}  // namespace

const Hook* profile_hook(const probes::Probe& probe, std::string& error) {
  static const TimerHook hook;
  if (probe.period_ns == 0) {
    error = "probe " + probe.full_name() + " has no valid rate";
    return nullptr;
  }
  return &hook;
}

}  // namespace dsched::codegen
