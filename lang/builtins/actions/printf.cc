// printf(format, args...): records the arguments; user space renders the format with them.
#include "lang/builtins/support.h"

namespace dsched::lang {
namespace {

class Printf : public FormattedAction {
 public:
  Printf() : FormattedAction("printf", {1, Arity::kUnbounded}) {}

  void run(const abi::RecordedAction& action, const abi::RecordView& record, abi::RunContext& run) const override {
    run.output().printf(*action.format, record.fields(action.fields));
  }
};

const Registered<Printf> registered;

}  // namespace
}  // namespace dsched::lang
