// The context thread (the task the probe is about: on-cpu's incoming thread, otherwise the running
// one): pid, ppid, tid, uid, gid, execname, curthread, and the translated curlwpsinfo and
// curpsinfo. For the running task the helpers answer; for another, its task_struct does.
#include <linux/bpf.h>

#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/strings.h"
#include "lang/diagnostics.h"

namespace dsched::lang {
namespace {

using codegen::Lowering;
using codegen::Value;

// The context task's task_struct member `path`, as the variable's type.
Value task_field(Lowering& l, const Expr& use, const std::vector<const char*>& path) {
  return {l.ir.normalize(l.exprs.kernel_field(l.firing.context_task(), "task_struct", path, use.loc), use.type),
          use.type};
}

// A variable one helper answers for the running task: (helper() >> shift) & mask; other tasks
// read `path` of their task_struct.
class TaskId : public NamedVariable {
 public:
  TaskId(std::string_view name, const char* type, int helper, int shift, std::vector<const char*> path)
      : NamedVariable(name, type), helper_(helper), shift_(shift), path_(std::move(path)) {}

  Value lower(Lowering& l, const Expr& use) const override {
    if (!l.firing.context_is_current()) return task_field(l, use, path_);
    auto& b = l.ir.b();
    llvm::Value* both = l.ir.helper(helper_, {});
    llvm::Value* v = shift_ ? b.CreateLShr(both, shift_) : b.CreateAnd(both, l.ir.const64(0xffffffff));
    return {v, use.type};
  }

 private:
  int helper_;
  int shift_;
  std::vector<const char*> path_;
};

class Ppid : public NamedVariable {
 public:
  Ppid() : NamedVariable("ppid", "pid_t") {}
  Value lower(Lowering& l, const Expr& use) const override { return task_field(l, use, {"real_parent", "tgid"}); }
};

class Execname : public NamedVariable {
 public:
  Execname() : NamedVariable("execname", "string") {}
  Value lower(Lowering& l, const Expr& use) const override {
    if (l.firing.context_is_current()) return l.strings.current_comm();
    const Type* task = l.program.types->kernel_record(TypeKind::Struct, "task_struct", nullptr);
    auto comm = task->find_member("comm");
    llvm::Value* address =
        l.ir.b().CreateAdd(l.firing.context_task(), l.ir.const64(static_cast<int64_t>(comm->offset_bits / 8)));
    return l.strings.from_kernel(address, comm->type->size);
  }
};

class Curthread : public NamedVariable {
 public:
  Curthread() : NamedVariable("curthread", "struct task_struct *") {}
  // DTrace's: a stable name for what the running kernel makes of its own task structure.
  Attributes attributes(const ProviderStability&) const override {
    return {StabilityLevel::Stable, StabilityLevel::Private, DependencyClass::Common};
  }
  Value lower(Lowering& l, const Expr& use) const override {
    return {l.firing.context_task(), use.type, 0, false, /*btf=*/true};
  }
};

// curlwpsinfo and curpsinfo: the context thread through the lwpsinfo_t and psinfo_t translators.
class TranslatedTask : public NamedVariable {
 public:
  TranslatedTask(std::string_view name, const char* type, const char* output)
      : NamedVariable(name, type), output_(output) {}
  std::optional<Translation> translation() const override { return Translation{output_, "curthread"}; }
  Value lower(Lowering&, const Expr& use) const override { fail(use.loc, ErrTag::D_UNKNOWN, std::string(name()) + " is translated"); }

 private:
  const char* output_;
};

const Registered<TaskId> pid("pid", "pid_t", BPF_FUNC_get_current_pid_tgid, 32, std::vector<const char*>{"tgid"});
const Registered<TaskId> tid("tid", "id_t", BPF_FUNC_get_current_pid_tgid, 0, std::vector<const char*>{"pid"});
const Registered<TaskId> uid("uid", "uid_t", BPF_FUNC_get_current_uid_gid, 0, std::vector<const char*>{"cred", "uid"});
const Registered<TaskId> gid("gid", "gid_t", BPF_FUNC_get_current_uid_gid, 32, std::vector<const char*>{"cred", "gid"});
const Registered<Ppid> ppid;
const Registered<Execname> execname;
const Registered<Curthread> curthread;
const Registered<TranslatedTask> curlwpsinfo("curlwpsinfo", "lwpsinfo_t *", "lwpsinfo_t");
const Registered<TranslatedTask> curpsinfo("curpsinfo", "psinfo_t *", "psinfo_t");

}  // namespace
}  // namespace dsched::lang
