// io provider: block I/O as DTrace's io provider shows it, on tracepoints only.
//   start       tp_btf/block_rq_issue(rq): a request goes to the device's driver
//   done        tp_btf/block_rq_complete(rq, error, nr_bytes): the device completed it
//   wait-start  tp_btf/sched_switch, prev switched out inside an I/O wait (task_struct.in_iowait):
//               the outgoing thread waits for I/O
//   wait-done   tp_btf/sched_switch, next coming back from such a wait (in_iowait is cleared
//               only once the thread runs again)
// start and done carry DTrace's bufinfo_t *args[0], devinfo_t *args[1] and fileinfo_t *args[2],
// translated from the request in stdlib/io.d. The scheduler does not say which request a thread
// waits for, so wait-start and wait-done carry no arguments.
#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/hook.h"
#include "lang/codegen/ir.h"
#include "lang/provider.h"
#include "probes/sched/sched.h"

namespace dsched::probes {
namespace {

using codegen::Lowering;
using codegen::tracepoint_arg;

class RequestHook : public codegen::Hook {
 public:
  explicit RequestHook(const char* section) : section_(section) {}
  std::vector<std::string> sections(const lang::Probe&) const override { return {section_}; }
  llvm::Value* arg(Lowering& l, int) const override { return tracepoint_arg(l, 0); }  // the request

 private:
  const char* section_;
};

// The I/O wait of the thread switched out (wait-start) or in (wait-done).
class IoWaitHook : public codegen::Hook {
 public:
  explicit IoWaitHook(bool done) : done_(done) {}
  std::vector<std::string> sections(const lang::Probe&) const override { return {sched::kSwitch}; }
  int attach_order(const lang::Probe&) const override {
    return done_ ? sched::kIncomingOrder : sched::kOutgoingOrder;
  }
  bool context_is_current(const lang::Probe&) const override { return !done_; }
  llvm::Value* context_task(Lowering& l) const override {
    return done_ ? tracepoint_arg(l, sched::kSwitchNext) : Hook::context_task(l);
  }
  // Every switch inside io_schedule() counts, also one where a completion woke the thread before
  // it slept: in_iowait is cleared only by the thread itself once it runs again, so each
  // wait-start has its wait-done, as DTrace pairs them around every wait for a buffer.
  llvm::Value* guard(Lowering& l) const override {
    llvm::Value* task = tracepoint_arg(l, done_ ? sched::kSwitchNext : sched::kSwitchPrev);
    llvm::Value* in_iowait = l.exprs.kernel_field(task, "task_struct", {"in_iowait"});
    return l.ir.b().CreateICmpNE(in_iowait, l.ir.const64(0));
  }

 private:
  bool done_;
};

class IoProvider : public lang::Provider {
 public:
  std::string_view name() const override { return "io"; }
  std::vector<lang::Probe> probes() const override {
    constexpr const char* kRequest = "struct request *";
    std::vector<lang::ProbeArg> request_args{
        {kRequest, "bufinfo_t *"}, {kRequest, "devinfo_t *"}, {kRequest, "fileinfo_t *"}};
    auto probe = [&](const char* name, std::vector<lang::ProbeArg> args) {
      return lang::Probe{0, "io", "vmlinux", "", name, std::move(args), "", this};
    };
    return {probe("done", request_args), probe("start", request_args), probe("wait-done", {}),
            probe("wait-start", {})};
  }

  const codegen::Hook& hook(const lang::Probe& probe) const override {
    if (probe.name == "start") return start_;
    if (probe.name == "done") return done_;
    return probe.name == "wait-start" ? wait_start_ : wait_done_;
  }

 private:
  RequestHook start_{"tp_btf/block_rq_issue"};
  RequestHook done_{"tp_btf/block_rq_complete"};
  IoWaitHook wait_start_{false};
  IoWaitHook wait_done_{true};
};

const lang::RegisteredProvider<IoProvider> registered;

}  // namespace
}  // namespace dsched::probes
