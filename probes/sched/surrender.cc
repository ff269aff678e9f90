// surrender: the kernel asks another CPU to reschedule through smp_send_reschedule(), which traces
// ipi_send_cpu with no callback. The thread it asks is whatever runs on that CPU, which
// sched_switch keeps in a per-CPU array for this purpose.
#include <algorithm>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/maps.h"
#include "lang/codegen/programs.h"
#include "probes/sched/sched.h"

namespace dsched::probes::sched {
namespace {

using codegen::Lowering;
using codegen::tracepoint_arg;

class SurrenderHook : public codegen::Hook {
 public:
  std::vector<std::string> sections(const lang::Probe&) const override { return {kSwitch, kIpi}; }
  int attach_order(const lang::Probe&) const override { return kCurrentTaskOrder; }
  llvm::Value* arg(Lowering& l, int) const override { return l.firing.binding().task; }
  // The task comes out of a map: a plain number to the verifier.
  bool arg_is_btf(int) const override { return false; }

  void emit(Lowering& l, const std::string& section, const std::vector<const lang::Probe*>& probes) const override {
    codegen::Ir& ir = l.ir;
    auto& b = ir.b();
    llvm::Value* key = ir.stack_slot();
    auto current_task_slot = [&](llvm::Value* cpu) {
      b.CreateStore(cpu, key);
      uint32_t cpus = static_cast<uint32_t>(std::max(libbpf_num_possible_cpus(), 1));
      llvm::GlobalVariable* map = l.maps.hook_map({"cpu_current_task", BPF_MAP_TYPE_ARRAY, cpus, 4, 8, 0, false});
      return ir.helper(BPF_FUNC_map_lookup_elem, {map, key});
    };
    llvm::Value* this_cpu = ir.helper(BPF_FUNC_get_smp_processor_id, {});
    if (section == kSwitch) {
      llvm::Value* slot = current_task_slot(this_cpu);
      ir.when(b.CreateICmpNE(slot, ir.const64(0)),
              [&] { b.CreateStore(tracepoint_arg(l, kSwitchNext), b.CreateIntToPtr(slot, ir.ptr())); });
      return;
    }
    llvm::Value* target = b.CreateAnd(tracepoint_arg(l, 0), ir.const64(0xffffffff));
    llvm::Value* reschedule = b.CreateICmpEQ(tracepoint_arg(l, 2), ir.const64(0));
    ir.when(b.CreateAnd(reschedule, b.CreateICmpNE(target, this_cpu)), [&] {
      llvm::Value* slot = current_task_slot(target);
      ir.when(b.CreateICmpNE(slot, ir.const64(0)), [&] {
        llvm::Value* task = b.CreateLoad(ir.i64(), b.CreateIntToPtr(slot, ir.ptr()));
        ir.when(b.CreateICmpNE(task, ir.const64(0)), [&] {
          for (const lang::Probe* probe : probes) l.programs.fire(*probe, {task, target});
        });
      });
    });
  }
};

}  // namespace

const codegen::Hook& surrender_hook() {
  static const SurrenderHook hook;
  return hook;
}

}  // namespace dsched::probes::sched
