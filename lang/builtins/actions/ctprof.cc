// ctprof_snapshot(path [, "flags"]) and ctprof_compare(baseline, candidate [, "flags"]): the
// ctprof engine run from a script, in order with its output. The flags are those of
// `dsched ctprof capture` and `compare`; literal flags are checked when the script compiles. The
// compare table is printed into the script's output, errors and hints go to the error stream.
#include <sstream>

#include "lang/builtins/support.h"
#include "lang/codegen/records.h"
#include "lang/diagnostics.h"
#include "probes/ctprof/ctprof.h"

namespace dsched::lang {
namespace {

class CtprofFunction : public Action {
 public:
  using FlagsError = std::string (*)(const std::string&);
  CtprofFunction(std::string_view name, Arity arity, FlagsError flags_error)
      : Action(name, arity), flags_error_(flags_error) {}

  void check(Checker& c, ExprPtr& call) const override {
    for (size_t i = 0; i < call->operands.size(); ++i) check_string_arg(c, *call, i);
    if (call->operands.size() == size_t(arity().max)) {
      const Expr& flags = *call->operands.back();
      if (flags.kind == ExprKind::StringLiteral)
        if (std::string error = flags_error_(flags.text); !error.empty())
          fail(flags.loc, ErrTag::D_PROTO_ARG, std::string(name()) + "(): " + error);
    }
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
  // The flags argument, or "" when the call has none.
  static std::string flags(const abi::RecordedAction& action, const abi::RecordView& record, size_t index) {
    return action.fields.size() > index ? record.field(action.fields[index]).text : "";
  }

 private:
  FlagsError flags_error_;
};

class CtprofSnapshot : public CtprofFunction {
 public:
  CtprofSnapshot() : CtprofFunction("ctprof_snapshot", {1, 2}, ctprof::snapshot_flags_error) {}
  // It writes a file the script names: like system(), only with -w.
  bool destructive() const override { return true; }
  void run(const abi::RecordedAction& action, const abi::RecordView& record, abi::RunContext& run) const override {
    std::ostringstream hints;
    std::string error = ctprof::write_snapshot(record.field(action.fields[0]).text, flags(action, record, 1), hints);
    std::istringstream lines(hints.str());
    for (std::string line; std::getline(lines, line);) run.output().warning(line);
    report_error(run, error);
  }
};

class CtprofCompare : public CtprofFunction {
 public:
  CtprofCompare() : CtprofFunction("ctprof_compare", {2, 3}, ctprof::compare_flags_error) {}
  void run(const abi::RecordedAction& action, const abi::RecordView& record, abi::RunContext& run) const override {
    std::ostringstream table;
    std::string error = ctprof::compare_files(record.field(action.fields[0]).text, record.field(action.fields[1]).text,
                                              flags(action, record, 2), table);
    run.output().report(name(), table.str());
    report_error(run, error);
  }
};

const Registered<CtprofSnapshot> snapshot;
const Registered<CtprofCompare> compare;

}  // namespace
}  // namespace dsched::lang
