// dtrace:::BEGIN, END and ERROR: programs run on demand in dsched's own context.
#include "lang/codegen/hooks.h"

namespace dsched::codegen {
namespace {

class OnDemandHook : public Hook {
 public:
  std::string section(const probes::Probe&) const override { return "raw_tp"; }
  AttachPoint::Kind attach_kind() const override { return AttachPoint::Kind::OnDemand; }
};

}  // namespace

const Hook* dtrace_hook(const probes::Probe& probe, std::string& error) {
  static const OnDemandHook hook;
  return &hook;
}

}  // namespace dsched::codegen
