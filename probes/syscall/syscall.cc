// syscall provider: syscall:vmlinux:<call>:entry and :return for every x86-64 system call this
// kernel has. probefunc is the call's name.
//   entry    arg0..arg5 (and args[0..5]) are the call's arguments, from the registers the
//            system call ABI passes them in
//   return   arg0 and arg1 are the return value, -1 when the call failed; errno is the error
//            (0 on success)
// Where the names come from: the numbers are the x86-64 system call table of <asm/unistd_64.h>,
// read at build time (numbers are ABI and never change); a call is listed when the running
// kernel's BTF has its implementation, __x64_sys_<name> or, for calls without arguments,
// __do_sys_<name>. Calls newer than the build's headers are not listed.
// How they fire: one program on raw_syscalls' sys_enter (tp_btf: no tracefs needed), one on
// sys_exit (per-call tracepoints, syscalls:sys_enter_<name>, need tracefs to attach). A call with
// clauses of its own is a case of a switch on the call's number; calls that share their clauses
// (`syscall:::entry`) find their index in a table by number and run one copy of the clauses, which
// read the call's name from a table by that index. Calls made by 32-bit (compat) tasks have other
// numbers and are not traced.
#include <linux/btf.h>

#include <algorithm>
#include <map>
#include <set>

#include "lang/btf_types.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/hook.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/programs.h"
#include "lang/provider.h"
#include "lang/types.h"

namespace dsched::probes {
namespace {

using codegen::Lowering;
using codegen::tracepoint_arg;

constexpr const char* kEnter = "tp_btf/sys_enter";  // (struct pt_regs *regs, long id)
constexpr const char* kExit = "tp_btf/sys_exit";    // (struct pt_regs *regs, long ret)
constexpr uint64_t kCompat = 0x0002;                // TS_COMPAT in thread_info.status: a 32-bit call
constexpr int64_t kMaxErrno = 4095;                 // returns in [-4095, -1] are errors
constexpr const char* kValue = "int64_t";

struct SyscallNumber {
  const char* name;
  int number;
};
constexpr SyscallNumber kNumbers[] = {
#include "syscall_numbers.inc"
};

// Calls whose implementation has another name than the call.
std::string implementation_of(std::string_view call) {
  if (call == "umount2") return "umount";
  return std::string(call);
}

class SyscallHook : public codegen::Hook {
 public:
  SyscallHook(bool entry, const std::map<std::string, int>& numbers) : entry_(entry), numbers_(numbers) {}

  std::vector<std::string> sections(const lang::Probe&) const override { return {entry_ ? kEnter : kExit}; }
  bool fires_alike() const override { return true; }

  // Every system call runs the program: one for a single call leaves at the first test.
  llvm::Value* program_filter(Lowering& l, const std::string&,
                              const std::vector<const lang::Probe*>& probes) const override {
    if (probes.size() != 1) return nullptr;
    return l.ir.b().CreateICmpEQ(number(l), l.ir.const64(numbers_.at(probes.front()->function)));
  }

  // The call is looked for first, so that calls no probe wants cost a test or a table read; then
  // it must be a native (64-bit) call.
  void emit(Lowering& l, const std::string&, const std::vector<const lang::Probe*>& probes) const override {
    auto& b = l.ir.b();
    std::vector<std::vector<const lang::Probe*>> groups = l.programs.alike_groups(probes);
    llvm::BasicBlock* done = l.ir.new_block("syscall.done");
    llvm::SwitchInst* calls = b.CreateSwitch(number(l), done);
    for (const auto& group : groups) {
      if (group.size() != 1) continue;
      const lang::Probe* probe = group.front();
      llvm::BasicBlock* call = l.ir.new_block("syscall." + probe->function);
      calls->addCase(b.getInt64(numbers_.at(probe->function)), call);
      b.SetInsertPoint(call);
      l.ir.when(native(l), [&] { l.programs.fire(*probe); });
      b.CreateBr(done);
    }
    b.SetInsertPoint(done);
    for (const auto& group : groups)
      if (group.size() > 1) fire_alike(l, group);
  }

  // x86-64 passes arguments in rdi, rsi, rdx, r10, r8, r9; a call returns its value in the slot.
  llvm::Value* arg(Lowering& l, int index) const override {
    if (entry_) {
      static const char* const registers[] = {"di", "si", "dx", "r10", "r8", "r9"};
      return l.exprs.kernel_field(tracepoint_arg(l, 0), "pt_regs", {registers[index]});
    }
    return l.ir.b().CreateSelect(failed(l), l.ir.const64(-1), tracepoint_arg(l, 1));
  }
  bool arg_is_btf(int) const override { return false; }

  llvm::Value* errno_value(Lowering& l) const override {
    if (entry_) return Hook::errno_value(l);
    auto& b = l.ir.b();
    return b.CreateSelect(failed(l), b.CreateNeg(tracepoint_arg(l, 1)), l.ir.const64(0));
  }

 private:
  // Calls that share their clauses: a table by number holds each one's index in `alike`, plus
  // one (0: not one of them).
  void fire_alike(Lowering& l, const std::vector<const lang::Probe*>& alike) const {
    auto& b = l.ir.b();
    int highest = 0;
    for (const lang::Probe* probe : alike) highest = std::max(highest, numbers_.at(probe->function));
    std::vector<uint16_t> places(size_t(highest) + 1, 0);
    for (size_t i = 0; i < alike.size(); ++i) places[size_t(numbers_.at(alike[i]->function))] = uint16_t(i + 1);
    llvm::Value* call = number(l);
    l.ir.when(b.CreateICmpULE(call, l.ir.const64(highest)), [&] {
      auto* table = l.ir.rodata(llvm::ConstantDataArray::get(l.ir.module().context(), places), "syscall_places");
      llvm::Value* at = b.CreateGEP(b.getInt16Ty(), table, l.ir.bounded(call, places.size()));
      llvm::Value* place = b.CreateZExt(b.CreateLoad(b.getInt16Ty(), at), l.ir.i64());
      l.ir.when(b.CreateICmpNE(place, l.ir.const64(0)), [&] {
        l.ir.when(native(l), [&] { l.programs.fire_alike(alike, b.CreateSub(place, l.ir.const64(1))); });
      });
    });
  }

  // Whether the call is a native one: a 32-bit task's calls have other numbers.
  llvm::Value* native(Lowering& l) const {
    auto& b = l.ir.b();
    llvm::Value* status = l.exprs.kernel_field(Hook::context_task(l), "task_struct", {"thread_info", "status"});
    return b.CreateICmpEQ(b.CreateAnd(status, l.ir.const64(kCompat)), l.ir.const64(0));
  }

  // The call's number: sys_enter passes it, sys_exit leaves it in the registers' orig_ax.
  llvm::Value* number(Lowering& l) const {
    if (entry_) return tracepoint_arg(l, 1);
    return l.exprs.kernel_field(tracepoint_arg(l, 0), "pt_regs", {"orig_ax"});
  }
  static llvm::Value* failed(Lowering& l) {
    auto& b = l.ir.b();
    return b.CreateICmpUGE(tracepoint_arg(l, 1), l.ir.const64(-kMaxErrno));
  }

  bool entry_;
  const std::map<std::string, int>& numbers_;
};

class SyscallProvider : public lang::Provider {
 public:
  SyscallProvider() {
    for (const SyscallNumber& n : kNumbers) numbers_[n.name] = n.number;
  }

  std::string_view name() const override { return "syscall"; }
  lang::ProviderStability stability() const override {
    return {lang::kEvolvingCommon, lang::kPrivateUnknown, lang::kPrivateIsa, lang::kEvolvingCommon, lang::kPrivateIsa};
  }
  bool read_from_kernel() const override { return true; }
  bool could_name(std::string_view name) const override { return name == "entry" || name == "return"; }

  std::vector<lang::Probe> probes() const override {
    std::string error;
    lang::TypeUniverse universe(0);
    const lang::BtfTypes* btf = universe.btf(&error);
    std::set<std::string_view> implemented;
    if (btf) {
      for (const char* prefix : {"__x64_sys_", "__do_sys_"})
        for (auto [name, id] : btf->find_prefixed(prefix, BTF_KIND_FUNC))
          implemented.insert(name.substr(std::string_view(prefix).size()));
    }
    std::vector<lang::Probe> list;
    std::vector<lang::ProbeArg> entry_args(6, {kValue, ""});
    std::vector<lang::ProbeArg> return_args(2, {kValue, ""});
    for (const auto& [call, number] : numbers_) {
      std::string unsupported;
      if (!btf)
        unsupported = "syscall::" + call + ": cannot read the kernel's system calls: " + error;
      else if (!implemented.count(implementation_of(call)))
        continue;
      list.push_back({0, "syscall", "vmlinux", call, "entry", entry_args, unsupported, this});
      list.push_back({0, "syscall", "vmlinux", call, "return", return_args, unsupported, this});
    }
    return list;
  }

  const codegen::Hook& hook(const lang::Probe& probe) const override {
    return probe.name == "entry" ? entry_ : return_;
  }

 private:
  std::map<std::string, int> numbers_;
  SyscallHook entry_{true, numbers_};
  SyscallHook return_{false, numbers_};
};

const lang::RegisteredProvider<SyscallProvider> registered;

}  // namespace
}  // namespace dsched::probes
