// system(format, args...): renders the format like printf() and runs it as a shell command, in
// order with the output (destructive: needs -w).
#include "lang/builtins/support.h"

namespace dsched::lang {
namespace {

class System : public FormattedAction {
 public:
  System() : FormattedAction("system", {1, Arity::kUnbounded}) {}
  bool destructive() const override { return true; }
  Speculation speculation() const override { return Speculation::Destructive; }

  void run(const abi::RecordedAction& action, const abi::RecordView& record, abi::RunContext& run) const override {
    run.run_command(*action.format, record.fields(action.fields));
  }
};

const Registered<System> registered;

}  // namespace
}  // namespace dsched::lang
