// d_path(struct path *), and what is built on it: the variables cwd and root, and __mount_point()
// (fds[].fi_mount). d_path gives the path name of a file as the kernel would print it
// ("/tmp/a.txt"), the subroutine DTrace on Linux offers. The kernel's own d_path() may not be
// called from tracepoint programs, so the name is rebuilt from the dentries: up the d_parent chain
// to the root of each mount, across to the mount point on the parent mount, until the mount that is
// its own parent. A file on no mounted tree (a pipe, a socket, an anonymous inode) is named as the
// kernel names it. A name longer than strsize is cut, as DTrace cuts any string.
#include <linux/bpf.h>

#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/lowering.h"
#include "lang/codegen/strings.h"
#include "lang/diagnostics.h"

namespace dsched::lang {
namespace {

using codegen::Lowering;
using codegen::Value;

constexpr uint64_t kMostComponents = 64;              // deeper paths keep their last 64 components
constexpr uint64_t kMostSteps = 2 * kMostComponents;  // components and mount crossings

// Byte offsets of the kernel members the walk reads, from this kernel's BTF.
struct Offsets {
  int64_t path_mnt, path_dentry, dentry_parent, dentry_name, dentry_sb, dentry_inode, sb_magic, inode_number,
      mount_parent, mount_point, mount_vfsmount, vfsmount_root;
};

constexpr uint64_t kPipefsMagic = 0x50495045, kSockfsMagic = 0x534f434b;
constexpr uint64_t kMostDigits = 20;  // of a 64-bit inode number

// A file on no mounted tree, named as the kernel's d_dname() names it: "pipe:[inode]" and
// "socket:[inode]" for pipes and sockets, its dentry's name ("[eventfd]"...) for anything else.
// `out` is a zeroed wide buffer (Strings::wide_buffer()).
void name_detached(Lowering& l, const Offsets& o, llvm::Value* dentry, llvm::Value* words, llvm::Value* out) {
  codegen::Ir& ir = l.ir;
  auto& b = ir.b();
  const Type* word_type = l.program.types->integer(8, false);
  auto read = [&](llvm::Value* address) { return l.exprs.read_kernel(address, 8, word_type); };
  auto at = [&](llvm::Value* base, int64_t offset) { return b.CreateAdd(base, ir.const64(offset)); };
  llvm::Value* magic = b.CreateAnd(read(at(read(at(dentry, o.dentry_sb)), o.sb_magic)), ir.const64(0xffffffff));
  llvm::Value* pipe = b.CreateICmpEQ(magic, ir.const64(kPipefsMagic));
  llvm::Value* socket = b.CreateICmpEQ(magic, ir.const64(kSockfsMagic));
  ir.when(b.CreateNot(b.CreateOr(pipe, socket)), [&] {
    llvm::Value* name = read(at(dentry, o.dentry_name));
    ir.helper(BPF_FUNC_probe_read_kernel_str,
              {out, ir.const64(l.strings.capacity_of_strings()), b.CreateIntToPtr(name, ir.ptr())});
  });
  ir.when(b.CreateOr(pipe, socket), [&] {
    uint64_t room = 2 * l.strings.bytes_of_strings();
    auto put = [&](llvm::Value* at_index, char c) {
      b.CreateStore(b.getInt8(c), b.CreateInBoundsGEP(ir.i8(), out, ir.bounded(at_index, room)));
    };
    auto put_text = [&](uint64_t from, const char* text) {
      for (uint64_t i = 0; text[i]; ++i) put(ir.const64(from + i), text[i]);
    };
    put_text(0, "pipe:[");
    ir.when(socket, [&] { put_text(0, "socket:["); });
    llvm::Value* start = b.CreateSelect(socket, ir.const64(8), ir.const64(6));
    llvm::Value* number = read(at(read(at(dentry, o.dentry_inode)), o.inode_number));
    // The digits, last first, each at its place once their count is known; none is a branch.
    llvm::Value* digits = ir.const64(1);
    uint64_t power = 10;
    for (uint64_t k = 1; k < kMostDigits; ++k, power *= 10)
      digits = b.CreateAdd(digits, ir.widen(b.CreateICmpUGE(number, ir.const64(static_cast<int64_t>(power)))));
    llvm::Value* end = b.CreateAdd(start, digits);
    llvm::Value* rest = number;
    for (uint64_t k = 0; k < kMostDigits; ++k) {
      llvm::Value* digit = b.CreateAdd(b.CreateURem(rest, ir.const64(10)), ir.const64('0'));
      llvm::Value* place = b.CreateSub(b.CreateSub(end, ir.const64(1)), ir.const64(static_cast<int64_t>(k)));
      // Digits beyond the number's own land past the text, which is cleared afterwards.
      place = b.CreateSelect(b.CreateICmpULT(ir.const64(static_cast<int64_t>(k)), digits), place,
                             ir.const64(static_cast<int64_t>(room - 1)));
      b.CreateStore(b.CreateTrunc(digit, ir.i8()), b.CreateInBoundsGEP(ir.i8(), out, ir.bounded(place, room)));
      rest = b.CreateUDiv(rest, ir.const64(10));
    }
    put(end, ']');
  });
}

Offsets offsets(Lowering& l, SourceRange where) {
  return {kernel_member_offset(l, "path", {"mnt"}, where),
            kernel_member_offset(l, "path", {"dentry"}, where),
            kernel_member_offset(l, "dentry", {"d_parent"}, where),
            kernel_member_offset(l, "dentry", {"d_name", "name"}, where),
            kernel_member_offset(l, "dentry", {"d_sb"}, where),
            kernel_member_offset(l, "dentry", {"d_inode"}, where),
            kernel_member_offset(l, "super_block", {"s_magic"}, where),
            kernel_member_offset(l, "inode", {"i_ino"}, where),
            kernel_member_offset(l, "mount", {"mnt_parent"}, where),
            kernel_member_offset(l, "mount", {"mnt_mountpoint"}, where),
            kernel_member_offset(l, "mount", {"mnt"}, where),
            kernel_member_offset(l, "vfsmount", {"mnt_root"}, where)};
}

// The kernel word at `address`, read with a fault check.
llvm::Value* kernel_word(Lowering& l, llvm::Value* address, int64_t offset) {
  return l.exprs.read_kernel(l.ir.b().CreateAdd(address, l.ir.const64(offset)), 8, l.program.types->integer(8, false));
}

// The path name of `dentry` on mount `vfsmount` (kernel addresses).
Value name_of(Lowering& l, const Offsets& o, llvm::Value* vfsmount, llvm::Value* dentry) {
  codegen::Ir& ir = l.ir;
  auto& b = ir.b();
  uint64_t n = l.strings.capacity_of_strings();
  // The walk's state lives in scratch, not on the stack: the verifier follows a
  // stack value through every iteration of a bpf_loop() callback, and a count
  // that grows each time would never let it conclude.
  enum Word : uint64_t { kDentry, kMount, kCount, kRead, kLength, kComponents };
  llvm::Value* words = l.firing.scratch((kComponents + kMostComponents) * 8);
  llvm::Value* out = l.strings.wide_buffer();  // a name read at the end may run past strsize
  llvm::Type* i64 = ir.i64();
  auto word = [&](llvm::Value* base, Word w) { return ir.offset_ptr(base, w * 8); };
  b.CreateStore(dentry, word(words, kDentry));
  b.CreateStore(b.CreateSub(vfsmount, ir.const64(o.mount_vfsmount)), word(words, kMount));
  b.CreateStore(ir.const64(0), word(words, kCount));
  b.CreateStore(ir.const64(0), word(words, kLength));

  auto* type = llvm::StructType::get(b.getContext(), {ir.ptr(), ir.ptr()});
  llvm::Value* context = ir.entry_alloca(type);
  b.CreateLifetimeStart(context);
  b.CreateStore(words, b.CreateStructGEP(type, context, 0));
  b.CreateStore(out, b.CreateStructGEP(type, context, 1));
  auto words_of = [&](llvm::Value* c) { return b.CreateLoad(ir.ptr(), b.CreateStructGEP(type, c, 0)); };

  // The kernel word at `address`.
  auto read_word = [&](llvm::Value* w, llvm::Value* address) {
    llvm::Value* slot = word(w, kRead);
    b.CreateStore(ir.const64(0), slot);
    ir.helper(BPF_FUNC_probe_read_kernel, {slot, ir.const64(8), b.CreateIntToPtr(address, ir.ptr())});
    return b.CreateLoad(i64, slot);
  };
  auto at = [&](llvm::Value* base, int64_t offset) { return b.CreateAdd(base, ir.const64(offset)); };
  auto component = [&](llvm::Value* w, llvm::Value* index) {
    return b.CreateInBoundsGEP(i64, word(w, kComponents), ir.bounded(index, kMostComponents));
  };

  // Up from the file: its dentries, leaf first, in `components`.
  l.strings.callback_loop(kMostSteps, context, "d_path_walk", [&](llvm::Value*, llvm::Value* c) {
    llvm::Value* w = words_of(c);
    llvm::Value* d = b.CreateLoad(i64, word(w, kDentry));
    llvm::Value* m = b.CreateLoad(i64, word(w, kMount));
    llvm::Value* root = read_word(w, at(m, o.mount_vfsmount + o.vfsmount_root));
    llvm::Value* parent = read_word(w, at(d, o.dentry_parent));
    llvm::Value* top = b.CreateOr(b.CreateICmpEQ(d, root), b.CreateICmpEQ(d, parent));
    llvm::Value* done = ir.stack_slot();
    b.CreateStore(ir.const64(0), done);
    ir.when(top, [&] {
      llvm::Value* parent_mount = read_word(w, at(m, o.mount_parent));
      llvm::Value* last = b.CreateOr(b.CreateICmpEQ(parent_mount, m), b.CreateICmpEQ(parent_mount, ir.const64(0)));
      b.CreateStore(ir.widen(last), done);
      b.CreateStore(read_word(w, at(m, o.mount_point)), word(w, kDentry));
      b.CreateStore(parent_mount, word(w, kMount));
    });
    ir.when(b.CreateNot(top), [&] {
      llvm::Value* count = b.CreateLoad(i64, word(w, kCount));
      llvm::Value* full = b.CreateICmpUGE(count, ir.const64(kMostComponents));
      b.CreateStore(ir.widen(full), done);
      ir.when(b.CreateNot(full), [&] {
        b.CreateStore(d, component(w, count));
        b.CreateStore(b.CreateAdd(count, ir.const64(1)), word(w, kCount));
        b.CreateStore(parent, word(w, kDentry));
      });
    });
    return b.CreateLoad(i64, done);
  });

  // Down from the root: "/" and each name, up to strsize.
  l.strings.callback_loop(kMostComponents, context, "d_path_names", [&](llvm::Value* i, llvm::Value* c) {
    llvm::Value* w = words_of(c);
    llvm::Value* count = b.CreateLoad(i64, word(w, kCount));
    llvm::Value* length = b.CreateLoad(i64, word(w, kLength));
    llvm::Value* stop = b.CreateOr(b.CreateICmpUGE(i, count), b.CreateICmpUGE(length, ir.const64(n - 1)));
    llvm::Value* result = ir.stack_slot();
    b.CreateStore(ir.const64(1), result);
    ir.when(b.CreateNot(stop), [&] {
      llvm::Value* k = b.CreateSub(b.CreateSub(count, ir.const64(1)), i);
      llvm::Value* d = b.CreateLoad(i64, component(w, k));
      llvm::Value* name = read_word(w, at(d, o.dentry_name));
      llvm::Value* text = b.CreateLoad(ir.ptr(), b.CreateStructGEP(type, c, 1));
      b.CreateStore(b.getInt8('/'), b.CreateInBoundsGEP(ir.i8(), text, ir.bounded(length, n)));
      llvm::Value* after = ir.bounded(b.CreateAdd(length, ir.const64(1)), n);
      llvm::Value* copied =
          ir.helper(BPF_FUNC_probe_read_kernel_str,
                    {b.CreateInBoundsGEP(ir.i8(), text, after), ir.const64(n), b.CreateIntToPtr(name, ir.ptr())});
      // The NUL it copied is where the next "/" goes.
      llvm::Value* grown = b.CreateSelect(b.CreateICmpSGT(copied, ir.const64(0)), b.CreateAdd(after, copied),
                                          b.CreateAdd(after, ir.const64(1)));
      b.CreateStore(b.CreateSub(grown, ir.const64(1)), word(w, kLength));
      b.CreateStore(ir.const64(0), result);
    });
    return b.CreateLoad(i64, result);
  });
  // No component: the root itself, or a file on no mounted tree.
  llvm::Value* none = b.CreateICmpEQ(b.CreateLoad(i64, word(words, kCount)), ir.const64(0));
  ir.when(none, [&] {
    llvm::Value* detached = b.CreateICmpNE(dentry, read_word(words, at(vfsmount, o.vfsmount_root)));
    b.CreateStore(b.getInt8('/'), out);
    ir.when(detached, [&] { name_detached(l, o, dentry, words, out); });
  });
  b.CreateLifetimeEnd(context);
  return l.strings.cut_wide(out);
}

// The name of the struct path at `path` (a kernel address).
Value path_name(Lowering& l, llvm::Value* path, SourceRange where) {
  Offsets o = offsets(l, where);
  return name_of(l, o, kernel_word(l, path, o.path_mnt), kernel_word(l, path, o.path_dentry));
}

// d_path(struct path *), and __mount_point(struct path *), where the file's file system is mounted
// (fds[].fi_mount): the name of its mount's root.
class DPath : public Subroutine {
 public:
  DPath(std::string_view name, bool mount_point) : Subroutine(name, {1, 1}), mount_point_(mount_point) {}

  void check(Checker& c, ExprPtr& call) const override {
    check_kernel_pointer_arg(c, *call, 0, "path");
    call->type = c.types().string_type();
  }

  Value lower(Lowering& l, const Expr& call) const override {
    llvm::Value* path = l.exprs.eval_int(*call.operand(0));
    if (!mount_point_) return path_name(l, path, call.loc);
    Offsets o = offsets(l, call.loc);
    llvm::Value* vfsmount = kernel_word(l, path, o.path_mnt);
    return name_of(l, o, vfsmount, kernel_word(l, vfsmount, o.vfsmount_root));
  }

 private:
  bool mount_point_;
};

// cwd and root: the current process's working and root directories.
class TaskDirectory : public NamedVariable {
 public:
  TaskDirectory(std::string_view name, const char* member) : NamedVariable(name, "string"), member_(member) {}
  Value lower(Lowering& l, const Expr& use) const override {
    llvm::Value* fs = l.exprs.kernel_field(l.firing.context_task(), "task_struct", {"fs"}, use.loc);
    return path_name(l, l.ir.b().CreateAdd(fs, l.ir.const64(kernel_member_offset(l, "fs_struct", {member_}, use.loc))),
                     use.loc);
  }

 private:
  const char* member_;
};

const Registered<DPath> d_path_function("d_path", false);
const Registered<DPath> mount_point_function("__mount_point", true);
const Registered<TaskDirectory> cwd_variable("cwd", "pwd");
const Registered<TaskDirectory> root_variable("root", "root");

}  // namespace
}  // namespace dsched::lang
