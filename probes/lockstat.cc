// lockstat provider: lock contention, from the kernel's contention_begin/contention_end
// tracepoints (lock and flags; lock and result), as DTrace for Linux names the probes.
//   adaptive-block  a mutex (or rt_mutex) the thread slept for      args[0] the mutex, args[1] ns
//   adaptive-spin   a mutex the thread got by spinning on its owner  args[0] the mutex, args[1] ns
//   adaptive-acquire-error  a mutex wait ended without it (a signal) args[0] the mutex, args[1] error
//   rw-block        a reader-writer semaphore the thread slept for   args[0], args[1] ns, args[2] RW_*
//   rw-spin         a reader-writer spinlock the thread spun on      as rw-block
//   spin-spin       a spinlock the thread spun on                    args[0] the lock, args[1] ns
// They fire when the wait ends, in the waiting thread's context. Hold events (acquire, release)
// happen on fast paths that only function tracing reaches, so those probes are refused.
// Each task's current wait (lock, flags, start) lives in task storage; a mutex's slow path may
// contend on its internal spinlock while waiting, so two waits are kept, the inner one second.
#include <linux/bpf.h>

#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/hook.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/maps.h"
#include "lang/codegen/programs.h"
#include "lang/provider.h"

namespace dsched::probes {
namespace {

using codegen::Ir;
using codegen::Lowering;
using codegen::tracepoint_arg;

constexpr const char* kBegin = "tp_btf/contention_begin";  // (void *lock, unsigned int flags)
constexpr const char* kEnd = "tp_btf/contention_end";      // (void *lock, int ret)

// The kernel's LCB_F_* flags (include/trace/events/lock.h).
constexpr int64_t kSpin = 1 << 0, kRead = 1 << 1, kWrite = 1 << 2, kRealTime = 1 << 3, kMutex = 1 << 5;
constexpr int64_t kReader = 1, kWriter = 0;  // RW_READER, RW_WRITER (stdlib/lockstat.d)

constexpr int kWaits = 2;      // a wait and one inside it
constexpr int kWaitWords = 3;  // lock, flags, start time

class ContentionHook : public codegen::Hook {
 public:
  std::vector<std::string> sections(const lang::Probe&) const override { return {kBegin, kEnd}; }
  llvm::Value* arg(Lowering& l, int index) const override { return l.firing.binding().args.at(index); }
  bool arg_is_btf(int) const override { return false; }

  void emit(Lowering& l, const std::string& section, const std::vector<const lang::Probe*>& probes) const override {
    Ir& ir = l.ir;
    auto& b = ir.b();
    llvm::GlobalVariable* waits = l.maps.hook_map(
        {"lock_waits", BPF_MAP_TYPE_TASK_STORAGE, 0, 4, 8 * kWaits * kWaitWords, BPF_F_NO_PREALLOC, true});
    bool begin = section == kBegin;
    llvm::Value* flags = ir.const64(begin ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
    llvm::Value* current = ir.helper(BPF_FUNC_get_current_task_btf, {});
    llvm::Value* slot = ir.helper(BPF_FUNC_task_storage_get, {waits, b.CreateIntToPtr(current, ir.ptr()), ir.null(), flags});
    llvm::Value* lock = tracepoint_arg(l, 0);
    ir.when(b.CreateICmpNE(slot, ir.const64(0)), [&] {
      llvm::Value* base = b.CreateIntToPtr(slot, ir.ptr());
      auto word = [&](int wait, int index) { return ir.offset_ptr(base, 8 * (wait * kWaitWords + index)); };
      auto load = [&](int wait, int index) { return b.CreateLoad(ir.i64(), word(wait, index)); };
      if (begin) {
        // The wait on this lock goes on (a mutex stops spinning to sleep): only its kind changes.
        // Otherwise it takes the first free place.
        llvm::Value* flags_now = b.CreateAnd(tracepoint_arg(l, 1), ir.const64(0xffffffff));
        llvm::Value* placed = ir.const64(0);
        for (int wait = 0; wait < kWaits; ++wait) {
          llvm::Value* same = b.CreateICmpEQ(load(wait, 0), lock);
          llvm::Value* free = b.CreateICmpEQ(load(wait, 0), ir.const64(0));
          llvm::Value* take = b.CreateAnd(b.CreateICmpEQ(placed, ir.const64(0)), b.CreateOr(same, free));
          ir.when(take, [&] {
            ir.when(free, [&] {
              b.CreateStore(lock, word(wait, 0));
              b.CreateStore(ir.helper(BPF_FUNC_ktime_get_ns, {}), word(wait, 2));
            });
            b.CreateStore(flags_now, word(wait, 1));
          });
          placed = b.CreateOr(placed, b.CreateZExt(take, ir.i64()));
        }
        return;
      }
      // The innermost wait on this lock ends (decided before either place is freed).
      llvm::Value* ends[kWaits];
      llvm::Value* inner = ir.const64(0);
      for (int wait = kWaits - 1; wait >= 0; --wait) {
        llvm::Value* on_lock = b.CreateICmpEQ(load(wait, 0), lock);
        ends[wait] = b.CreateAnd(on_lock, b.CreateICmpEQ(inner, ir.const64(0)));
        inner = b.CreateOr(inner, b.CreateZExt(on_lock, ir.i64()));
      }
      for (int wait = kWaits - 1; wait >= 0; --wait) {
        ir.when(ends[wait], [&] {
          llvm::Value* waited = b.CreateSub(ir.helper(BPF_FUNC_ktime_get_ns, {}), load(wait, 2));
          llvm::Value* kind = load(wait, 1);
          b.CreateStore(ir.const64(0), word(wait, 0));
          fire_ended(l, probes, lock, kind, waited);
        });
      }
    });
  }

 private:
  static void fire_ended(Lowering& l, const std::vector<const lang::Probe*>& probes, llvm::Value* lock,
                         llvm::Value* kind, llvm::Value* waited) {
    Ir& ir = l.ir;
    auto& b = ir.b();
    auto has = [&](int64_t flag) { return b.CreateICmpNE(b.CreateAnd(kind, ir.const64(flag)), ir.const64(0)); };
    llvm::Value* result = b.CreateSExt(b.CreateTrunc(tracepoint_arg(l, 1), b.getInt32Ty()), ir.i64());
    llvm::Value* failed = b.CreateICmpNE(result, ir.const64(0));
    llvm::Value* spun = has(kSpin);
    llvm::Value* mutex = b.CreateOr(has(kMutex), has(kRealTime));
    llvm::Value* rw = b.CreateAnd(b.CreateNot(mutex), b.CreateOr(has(kRead), has(kWrite)));
    llvm::Value* spinlock = b.CreateICmpEQ(kind, ir.const64(kSpin));
    llvm::Value* side = b.CreateSelect(has(kRead), ir.const64(kReader), ir.const64(kWriter));
    for (const lang::Probe* probe : probes) {
      const std::string& name = probe->name;
      llvm::Value* fires = nullptr;
      std::vector<llvm::Value*> args{lock, waited};
      if (name == "adaptive-block") fires = b.CreateAnd(mutex, b.CreateNot(b.CreateOr(spun, failed)));
      if (name == "adaptive-spin") fires = b.CreateAnd(mutex, b.CreateAnd(spun, b.CreateNot(failed)));
      if (name == "adaptive-acquire-error") {
        fires = b.CreateAnd(mutex, failed);
        args = {lock, result};
      }
      if (name == "rw-block" || name == "rw-spin") {
        fires = b.CreateAnd(rw, name == "rw-spin" ? spun : b.CreateNot(spun));
        args.push_back(side);
      }
      if (name == "spin-spin") fires = spinlock;
      ir.when(fires, [&] { l.programs.fire(*probe, {nullptr, nullptr, args}); });
    }
  }
};

class LockstatProvider : public lang::Provider {
 public:
  std::string_view name() const override { return "lockstat"; }
  std::vector<lang::Probe> probes() const override {
    constexpr const char* kMutexType = "struct mutex *";
    constexpr const char* kLock = "void *";
    constexpr const char* kTime = "uint64_t";
    auto probe = [&](const char* name, std::vector<lang::ProbeArg> args) {
      return lang::Probe{0, "lockstat", "vmlinux", "", name, std::move(args), "", this};
    };
    auto hold_event = [&](const char* name) {
      return lang::Probe{0, "lockstat", "vmlinux", "", name, {}, std::string("lockstat:::") + name +
                         " needs function tracing of the lock's fast path, which this kernel does not allow;"
                         " the contention probes (-block, -spin) work", this};
    };
    return {
        probe("adaptive-acquire-error", {{kMutexType, ""}, {"int", ""}}),
        hold_event("adaptive-acquire"),
        probe("adaptive-block", {{kMutexType, ""}, {kTime, ""}}),
        hold_event("adaptive-release"),
        probe("adaptive-spin", {{kMutexType, ""}, {kTime, ""}}),
        hold_event("rw-acquire"),
        probe("rw-block", {{kLock, ""}, {kTime, ""}, {"int", ""}}),
        hold_event("rw-release"),
        probe("rw-spin", {{kLock, ""}, {kTime, ""}, {"int", ""}}),
        hold_event("spin-acquire"),
        hold_event("spin-release"),
        probe("spin-spin", {{kLock, ""}, {kTime, ""}}),
    };
  }

  const codegen::Hook& hook(const lang::Probe&) const override { return hook_; }

 private:
  ContentionHook hook_;
};

const lang::RegisteredProvider<LockstatProvider> registered;

}  // namespace
}  // namespace dsched::probes
