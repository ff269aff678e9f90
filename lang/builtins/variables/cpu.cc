// cpu: the CPU the probe fires on; curcpu: that CPU through the cpuinfo_t translator.
#include <algorithm>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "lang/builtins/support.h"
#include "lang/codegen/ir.h"
#include "lang/diagnostics.h"

namespace dsched::lang {
namespace {

class Cpu : public NamedVariable {
 public:
  Cpu() : NamedVariable("cpu", "processorid_t") {}
  uint64_t distinct_values() const override { return uint64_t(std::max(libbpf_num_possible_cpus(), 1)); }
  codegen::Value lower(codegen::Lowering& l, const Expr& use) const override {
    return {l.ir.helper(BPF_FUNC_get_smp_processor_id, {}), use.type};
  }
};

class Curcpu : public NamedVariable {
 public:
  Curcpu() : NamedVariable("curcpu", "cpuinfo_t *") {}
  std::optional<Translation> translation() const override { return Translation{"cpuinfo_t", "cpu"}; }
  codegen::Value lower(codegen::Lowering&, const Expr& use) const override { fail(use.loc, ErrTag::D_UNKNOWN, "curcpu is translated"); }
};

const Registered<Cpu> cpu;
const Registered<Curcpu> curcpu;

}  // namespace
}  // namespace dsched::lang
