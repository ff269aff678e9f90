// DTrace's lock predicates, on the Linux locks that match them:
//   mutex_owned(struct mutex *)          whether the mutex is held
//   mutex_owner(struct mutex *)          the task holding it, or NULL
//   mutex_type_adaptive(struct mutex *)  1: a Linux mutex spins on a running owner, then sleeps
//   mutex_type_spin(struct mutex *)      0: a Linux mutex is never a pure spin lock
//   rw_write_held(struct rw_semaphore *) whether a writer holds it
//   rw_read_held(struct rw_semaphore *)  whether readers hold it
// The owner word of a mutex keeps flags in its low 3 bits (MUTEX_FLAGS); a rw_semaphore's count
// has the writer bit at 0 and the readers from bit 8 (kernel/locking/rwsem.c).
// rw_iswriter() (held or wanted by a writer) has no Linux counterpart: a rw_semaphore does not
// record what its waiters want; using it is an error.
#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/ir.h"
#include "lang/diagnostics.h"

namespace dsched::lang {
namespace {

constexpr int64_t kMutexFlags = 0x7;
constexpr int64_t kRwsemWriterLocked = 0x1;
constexpr int kRwsemReaderShift = 8;

enum class Question { Owned, Owner, Adaptive, Spin, WriteHeld, ReadHeld };

class LockPredicate : public Subroutine {
 public:
  LockPredicate(std::string_view name, Question question) : Subroutine(name, {1, 1}), question_(question) {}
  Attributes attributes() const override { return kEvolvingCommon; }  // as DTrace declares them

  void check(Checker& c, ExprPtr& call) const override {
    c.scalar(call->operands[0], call->text + "() lock");
    std::string want = std::string("struct ") + lock() + " *";
    if (type_name(call->operand(0)->type) != want)
      fail(call->operand(0)->loc, ErrTag::D_PROTO_ARG, call->text + "() takes a " + want + ", not " + type_name(call->operand(0)->type));
    call->type = question_ == Question::Owner ? c.type("struct task_struct *", call->loc) : c.types().integer(4, true);
  }

  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    codegen::Ir& ir = l.ir;
    auto& b = ir.b();
    if (question_ == Question::Adaptive || question_ == Question::Spin)
      return {ir.const64(question_ == Question::Adaptive), call.type};
    const Type* record = l.program.types->kernel_record(TypeKind::Struct, lock(), nullptr);
    auto member = record ? record->find_member(word()) : std::nullopt;
    if (!member) fail(call.loc, ErrTag::D_UNKNOWN, std::string("this kernel's struct ") + lock() + " has no member " + word());
    llvm::Value* address = b.CreateAdd(l.exprs.eval_int(*call.operand(0)), ir.const64(int64_t(member->offset_bits / 8)));
    llvm::Value* value = l.exprs.read_kernel(address, 8, l.program.types->integer(8, false));
    llvm::Value* owner = b.CreateAnd(value, ir.const64(~kMutexFlags));
    switch (question_) {
      case Question::Owner: return {owner, call.type};
      case Question::Owned: return {ir.widen(b.CreateICmpNE(owner, ir.const64(0))), call.type};
      case Question::WriteHeld:
        return {ir.widen(b.CreateICmpNE(b.CreateAnd(value, ir.const64(kRwsemWriterLocked)), ir.const64(0))), call.type};
      default:
        return {ir.widen(b.CreateICmpNE(b.CreateLShr(value, ir.const64(kRwsemReaderShift)), ir.const64(0))), call.type};
    }
  }

 private:
  bool is_rwsem() const { return question_ == Question::WriteHeld || question_ == Question::ReadHeld; }
  const char* lock() const { return is_rwsem() ? "rw_semaphore" : "mutex"; }
  const char* word() const { return is_rwsem() ? "count" : "owner"; }

  Question question_;
};

class RwIswriter : public Subroutine {
 public:
  RwIswriter() : Subroutine("rw_iswriter", {1, 1}) {}
  void check(Checker&, ExprPtr& call) const override {
    fail(call->loc, ErrTag::D_UNKNOWN,
         "rw_iswriter() is not available on Linux: a rw_semaphore does not record whether a writer waits for it; "
         "rw_write_held() tells whether a writer holds it");
  }
  codegen::Value lower(codegen::Lowering&, const Expr& call) const override { return no_value(call); }
};

const Registered<LockPredicate> mutex_owned("mutex_owned", Question::Owned);
const Registered<LockPredicate> mutex_owner("mutex_owner", Question::Owner);
const Registered<LockPredicate> mutex_type_adaptive("mutex_type_adaptive", Question::Adaptive);
const Registered<LockPredicate> mutex_type_spin("mutex_type_spin", Question::Spin);
const Registered<LockPredicate> rw_write_held("rw_write_held", Question::WriteHeld);
const Registered<LockPredicate> rw_read_held("rw_read_held", Question::ReadHeld);
const Registered<RwIswriter> rw_iswriter;

}  // namespace
}  // namespace dsched::lang
