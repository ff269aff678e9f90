// tracemem(address, size [, count]): records `size` bytes of kernel memory (a constant), and
// prints the first `count` of them (all when not given) as DTrace's hex dump: a heading of the 16
// column offsets, then per 16 bytes the offset, the bytes in hex and as text ('.' when not
// printable).
#include <algorithm>

#include "abi/hex_dump.h"
#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/records.h"

namespace dsched::lang {
namespace {

constexpr int64_t kMaxSize = 4096;

class Tracemem : public Action {
 public:
  Tracemem() : Action("tracemem", {2, 3, ErrTag::D_PROTO_LEN, ErrTag::D_TRACEMEM_ARGS}) {}

  void check(Checker& c, ExprPtr& call) const override {
    c.scalar(call->operands[0], "tracemem() address", ErrTag::D_TRACEMEM_ADDR);
    check_constant_arg(c, *call, 1, "size", 1, kMaxSize, ErrTag::D_TRACEMEM_SIZE);
    if (call->operands.size() > 2)
      check_integer_arg(c, *call, 2, "the number of bytes to print", ErrTag::D_TRACEMEM_DYNSIZE);
    set_void(c, *call);
  }

  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    auto size = static_cast<uint32_t>(call.operand(1)->value);
    llvm::Value* address = l.exprs.eval_int(*call.operand(0));
    std::vector<abi::RecordField> fields{l.records.memory(address, size)};
    if (call.operands.size() > 2) fields.push_back(l.records.value(*call.operand(2)));
    l.records.action(*this).fields = std::move(fields);
    return no_value(call);
  }

  void run(const abi::RecordedAction& action, const abi::RecordView& record, abi::RunContext& run) const override {
    const abi::RecordField& memory = action.fields[0];
    std::string_view bytes = record.bytes().substr(memory.offset, memory.size);
    if (action.fields.size() > 1) {
      int64_t count = record.field(action.fields[1]).as_signed();
      bytes = bytes.substr(0, static_cast<size_t>(std::clamp<int64_t>(count, 0, memory.size)));
    }
    run.output().report(name(), abi::hex_dump(bytes));
  }
};

const Registered<Tracemem> registered;

}  // namespace
}  // namespace dsched::lang
