// USDT: the statically defined probes of <sys/sdt.h> (.note.stapsdt) in processes, on uprobes.
// "myprov1234" names provider myprov in process 1234; a glob ("myprov*") every running process
// whose files have matching notes. The module is the file's name, the function the one holding the
// probe's site, the name the note's with "__" as "-" (as DTrace names USDT probes). argN is the
// note's N-th operand, truncated to its size and sign-extended when it is signed; args[N] has the
// operand's size and sign as its type. A probe's semaphore is the uprobe's reference counter, so
// the program sees the probe enabled exactly while it is traced.
#include <algorithm>
#include <map>

#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/user_registers.h"
#include "lang/diagnostics.h"
#include "probes/user/user_probes.h"

namespace dsched::probes {
namespace {

// int8_t ... uint64_t: the D type of an operand of `size` bytes.
std::string operand_type(const lang::SdtArgument& operand) {
  return std::string(operand.is_signed ? "" : "u") + "int" + std::to_string(8 * operand.size) + "_t";
}

// The function whose code holds `file_offset` (the first name at its address); "" when none does.
std::string function_at(const std::vector<lang::UserFunction>& functions, uint64_t file_offset) {
  const lang::UserFunction* best = nullptr;
  for (const lang::UserFunction& f : functions) {
    if (f.file_offset > file_offset || (f.size && file_offset - f.file_offset >= f.size)) continue;
    if (!best || f.file_offset > best->file_offset) best = &f;
  }
  return best ? best->name : "";
}

class UsdtHook : public UprobeHook {
 public:
  llvm::Value* arg(codegen::Lowering& l, int index) const override {
    const lang::Probe& probe = l.firing.probe();
    const lang::SdtArgument& operand = probe.user_site->args.at(size_t(index));
    if (!operand.unreadable.empty()) refuse(probe, index, operand.unreadable);
    auto reg = [&](const std::string& name) {
      int word = codegen::user_register_word(name);
      if (word < 0) refuse(probe, index, "%" + name + " is not a register dsched reads");
      return codegen::user_register(l, word);
    };
    codegen::Ir& ir = l.ir;
    auto& b = ir.b();
    const lang::Type* type = l.program.types->integer(uint64_t(operand.size), operand.is_signed);
    switch (operand.kind) {
      case lang::SdtArgument::Kind::Constant:
        return narrowed(l, ir.const64(operand.value), operand);
      case lang::SdtArgument::Kind::Register:
        return narrowed(l, reg(operand.base), operand);
      case lang::SdtArgument::Kind::Memory: {
        llvm::Value* address = ir.const64(operand.value);
        if (!operand.base.empty()) address = b.CreateAdd(reg(operand.base), address);
        if (!operand.index.empty())
          address = b.CreateAdd(address, b.CreateMul(reg(operand.index), ir.const64(operand.scale)));
        return l.exprs.read_user(address, uint64_t(operand.size), type);
      }
    }
    refuse(probe, index, "unknown operand kind");
  }

 private:
  // Unlocated: the code generator places it at the argument's use.
  [[noreturn]] static void refuse(const lang::Probe& probe, int index, const std::string& why) {
    throw lang::CompileError({}, lang::ErrTag::D_ARGS_TYPE, "arg" + std::to_string(index) + " of " + probe.full_name() + " (\"" +
                                     probe.user_site->args[size_t(index)].text + "\") cannot be read: " + why,
                             false);
  }

  // The low `size` bytes of `value`, sign- or zero-extended as the operand says.
  static llvm::Value* narrowed(codegen::Lowering& l, llvm::Value* value, const lang::SdtArgument& operand) {
    if (operand.size >= 8) return value;
    auto& b = l.ir.b();
    llvm::Value* low = b.CreateTrunc(value, b.getIntNTy(unsigned(8 * operand.size)));
    return operand.is_signed ? b.CreateSExt(low, l.ir.i64()) : b.CreateZExt(low, l.ir.i64());
  }
};

class UsdtProvider : public lang::Provider {
 public:
  std::string_view name() const override { return "usdt"; }
  std::vector<lang::Probe> probes() const override { return {}; }
  const codegen::Hook& hook(const lang::Probe&) const override { return hook_; }
  bool in_processes() const override { return true; }

  std::vector<lang::Probe> process_probes(const lang::DescriptionFields& d, lang::ProcessImages& images,
                                          std::string& error) const override {
    std::vector<lang::Probe> made;
    if (d.provider.empty()) return made;
    if (lang::is_glob(d.provider)) {
      // A pattern that names a provider of the kernel ("sched*", "*") is theirs alone.
      for (const lang::Provider* provider : lang::all_providers())
        if (provider != this && lang::field_matches(d.provider, std::string(provider->name()))) return made;
      // Processes that cannot be read (kernel threads, those gone meanwhile) are passed over.
      for (long pid : images.processes()) {
        std::string passed_over;
        add_process_probes(d, pid, images.modules(pid, passed_over), images, made);
      }
      return made;
    }
    size_t digits = d.provider.find_last_not_of("0123456789") + 1;
    if (digits == 0 || digits == d.provider.size()) return made;  // no provider name, or no pid
    std::optional<long> pid = process_of(d.provider, d.provider.substr(0, digits));
    if (!pid) return made;
    std::string reason;
    std::vector<lang::ProcessModule> modules = images.modules(*pid, reason);
    if (modules.empty()) {
      error = grab_error(*pid, reason.empty() ? "it maps no executable file" : reason);
      return made;
    }
    add_process_probes(d, *pid, modules, images, made);
    return made;
  }

 private:
  void add_process_probes(const lang::DescriptionFields& d, long pid, const std::vector<lang::ProcessModule>& modules,
                          lang::ProcessImages& images, std::vector<lang::Probe>& made) const {
    for (const lang::ProcessModule& module : modules) {
      if (!d.module.empty() && !module_matches(d.module, module)) continue;
      // Probes by full name: one probe per name has one site.
      std::map<std::string, size_t> by_name;
      for (const lang::SdtProbe& note : images.sdt_probes(module)) {
        std::string provider = note.provider + std::to_string(pid);
        std::string name = lang::dashed_probe_name(note.name);
        if (!lang::field_matches(d.provider, provider) || !lang::field_matches(d.name, name)) continue;
        std::string function = function_at(images.functions(module), note.file_offset);
        if (!lang::field_matches(d.function, function)) continue;
        lang::Probe probe{0, provider, module.name, function, name, {}, note.unsupported, this,
                          lang::UserSite{pid, module.path, note.file_offset, false, note.semaphore_offset, note.args}};
        if (!probe.unsupported.empty()) probe.unsupported = probe.full_name() + " cannot be traced: " + probe.unsupported;
        for (const lang::SdtArgument& operand : note.args) probe.args.push_back({operand_type(operand), ""});
        auto [known, added] = by_name.try_emplace(probe.full_name(), made.size());
        if (added) {
          made.push_back(std::move(probe));
        } else {
          // A probe expanded at several sites of one function (an inlined caller) would need a
          // program per site under one probe id.
          lang::Probe& first = made[known->second];
          first.unsupported = first.full_name() + " has several sites in its function; dsched traces a USDT probe "
                              "with one site only";
        }
      }
    }
  }

  UsdtHook hook_;
};

const lang::RegisteredProvider<UsdtProvider> registered;

}  // namespace
}  // namespace dsched::probes
