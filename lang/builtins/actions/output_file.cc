// ftruncate() and freopen(format, args...): what becomes of the output file, in order with the
// rest of the output. ftruncate() empties it (the standard output is only rewound, as dtrace(1)
// does); freopen() appends what follows to the file the rendered format names, and freopen("")
// goes back to the run's first output (destructive: needs -w).
#include "lang/builtins/support.h"
#include "lang/codegen/records.h"
#include "lang/diagnostics.h"

namespace dsched::lang {
namespace {

class Ftruncate : public Action {
 public:
  Ftruncate() : Action("ftruncate", {0, 0}) {}

  void check(Checker& c, ExprPtr& call) const override { set_void(c, *call); }

  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    l.records.action(*this);
    return no_value(call);
  }

  void run(const abi::RecordedAction&, const abi::RecordView&, abi::RunContext& run) const override {
    run.output().truncate();
  }
};

class Freopen : public FormattedAction {
 public:
  Freopen() : FormattedAction("freopen", {1, Arity::kUnbounded}) {}
  bool destructive() const override { return true; }
  Speculation speculation() const override { return Speculation::Destructive; }

  void check(Checker& c, ExprPtr& call) const override {
    // freopen("") goes back to the first output: here an empty format has a meaning.
    const Expr& format = *call->operand(0);
    if (call->operands.size() == 1 && format.kind == ExprKind::StringLiteral && format.text.empty())
      return set_void(c, *call);
    // DTrace passes "" on as "." to mean the first output, so "." itself cannot be a file's name.
    if (format.kind == ExprKind::StringLiteral && format.text == ".")
      fail(format.loc, ErrTag::D_FREOPEN_INVALID, "freopen( ) argument #1 cannot be \".\"");
    FormattedAction::check(c, call);
  }

  void run(const abi::RecordedAction& action, const abi::RecordView& record, abi::RunContext& run) const override {
    run.reopen_output(*action.format, record.fields(action.fields));
  }
};

const Registered<Ftruncate> ftruncate_action;
const Registered<Freopen> freopen_action;

}  // namespace
}  // namespace dsched::lang
