// ctprof_snapshot(path) and ctprof_compare(baseline, candidate [, "flags"]): the ctprof engine
// run from a script, in order with its output. Both take strings; the compare table is printed
// into the script's output, errors and hints go to the error stream.
#include <sstream>

#include "lang/builtins/support.h"
#include "lang/codegen/records.h"
#include "probes/ctprof/ctprof.h"

namespace dsched::lang {
namespace {

class CtprofFunction : public Action {
 public:
  CtprofFunction(std::string_view name, Arity arity) : Action(name, arity) {}

  void check(Checker& c, ExprPtr& call) const override {
    for (size_t i = 0; i < call->operands.size(); ++i) check_string_arg(c, *call, i);
    set_void(c, *call);
  }

  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    std::vector<abi::RecordField> fields = l.records.values(call, 0);
    l.records.action(*this).fields = std::move(fields);
    return no_value(call);
  }

 protected:
  void report_error(abi::RunContext& run, const std::string& error) const {
    if (!error.empty()) run.output().error(std::string(name()) + "(): " + error);
  }
};

class CtprofSnapshot : public CtprofFunction {
 public:
  CtprofSnapshot() : CtprofFunction("ctprof_snapshot", {1, 1}) {}
  void run(const abi::RecordedAction& action, const abi::RecordView& record, abi::RunContext& run) const override {
    std::ostringstream hints;
    std::string error = ctprof::write_snapshot(record.field(action.fields[0]).text, hints);
    std::istringstream lines(hints.str());
    for (std::string line; std::getline(lines, line);) run.output().warning(line);
    report_error(run, error);
  }
};

class CtprofCompare : public CtprofFunction {
 public:
  CtprofCompare() : CtprofFunction("ctprof_compare", {2, 3}) {}
  void run(const abi::RecordedAction& action, const abi::RecordView& record, abi::RunContext& run) const override {
    std::vector<abi::Value> args = record.fields(action.fields);
    std::ostringstream table;
    std::string error = ctprof::compare_files(args[0].text, args[1].text, args.size() > 2 ? args[2].text : "", table);
    run.output().report(name(), table.str());
    report_error(run, error);
  }
};

const Registered<CtprofSnapshot> snapshot;
const Registered<CtprofCompare> compare;

}  // namespace
}  // namespace dsched::lang
