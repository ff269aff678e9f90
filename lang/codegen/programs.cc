#include "lang/codegen/programs.h"

#include <algorithm>
#include <bpf/libbpf.h>
#include <linux/bpf.h>
#include <linux/btf.h>

#include "lang/builtins/builtin.h"
#include "lang/btf_types.h"
#include "lang/codegen/aggregations.h"
#include "lang/codegen/codegen.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/maps.h"
#include "lang/codegen/records.h"
#include "lang/codegen/strings.h"
#include "lang/codegen/variables.h"
#include "lang/diagnostics.h"

namespace dsched::codegen {
namespace {

std::string program_name(const lang::Probe& probe, size_t index) {
  std::string name = "ds" + std::to_string(index) + "_";  // "ds" marks dsched's programs in the kernel
  for (char c : probe.name) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

bool is_action(const lang::Stmt& stmt) {
  return stmt.kind == lang::StmtKind::Expr && stmt.expr->kind == lang::ExprKind::Call && stmt.expr->type->is_void();
}

}  // namespace

// Groups the probes the clauses use into sites: one BPF program each. Probes on one tracepoint
// share its program (in the hooks' firing order); timers and on-demand probes get their own.
std::vector<Programs::Site> Programs::plan() {
  for (const lang::Clause& clause : l_.program.clauses) {
    for (const lang::Probe* probe : clause.probes) {
      epids_.emplace(std::make_pair(&clause, probe), uint32_t(epids_.size()));
      clauses_by_probe_[probe].push_back(&clause);
    }
  }
  std::vector<Site> sites;
  for (const lang::Clause& clause : l_.program.clauses) {
    for (const lang::Probe* probe : clause.probes) {
      if (clauses_by_probe_.at(probe).front() != &clause) continue;
      const Hook* hook = &probe->owner->hook(*probe);
      if (hook->fires_on_fault(*probe)) {
        fault_probes_.push_back(probe);
        continue;
      }
      for (const std::string& section : hook->sections(*probe)) {
        bool shared = hook->attach_kind() == abi::AttachPoint::Kind::Tracepoint;
        std::string key = shared ? program_key(*probe, *hook, section) : section + "#" + std::to_string(probe->id);
        auto site = std::find_if(sites.begin(), sites.end(), [&](const Site& s) { return s.key == key; });
        if (site == sites.end()) site = sites.insert(sites.end(), Site{key, section, hook, {}});
        auto group = std::find_if(site->groups.begin(), site->groups.end(),
                                  [&](const HookGroup& g) { return g.hook == hook; });
        if (group == site->groups.end()) group = site->groups.insert(site->groups.end(), HookGroup{hook, {}});
        group->probes.push_back(probe);
      }
    }
  }
  for (Site& site : sites) {
    std::stable_sort(site.groups.begin(), site.groups.end(), [](const HookGroup& a, const HookGroup& b) {
      return a.hook->attach_order(*a.probes.front()) < b.hook->attach_order(*b.probes.front());
    });
  }
  return sites;
}

// Probes that fire alike go in programs by their clauses: each distinct list of clauses is emitted
// once, and a program holds at most 64 of them (the BPF back end's branch range).
std::string Programs::program_key(const lang::Probe& probe, const Hook& hook, const std::string& section) {
  std::string key = hook.program_key(probe, section);
  if (!hook.fires_alike()) return key;
  auto& lists = clause_lists_[&hook];
  size_t list = lists.emplace(clauses_by_probe_.at(&probe), lists.size()).first->second;
  return key + "#" + std::to_string(list / 64);
}

std::vector<std::vector<const lang::Probe*>> Programs::alike_groups(const std::vector<const lang::Probe*>& probes) const {
  std::vector<std::vector<const lang::Probe*>> groups;
  std::map<std::vector<const lang::Clause*>, size_t> group_of;
  for (const lang::Probe* probe : probes) {
    auto [at, added] = group_of.emplace(clauses_by_probe_.at(probe), groups.size());
    if (added) groups.emplace_back();
    groups[at->second].push_back(probe);
  }
  return groups;
}

std::vector<abi::AttachPoint> Programs::emit_all() {
  std::vector<abi::AttachPoint> points;
  std::vector<Site> sites = plan();
  llvm::Function* handler = fault_probes_.empty() ? nullptr : l_.ir.module().declare_subprogram("ds_fault");
  l_.records.set_fault_handler(handler);
  for (size_t i = 0; i < sites.size(); ++i) points.push_back(emit_program(sites[i], i));
  if (handler) emit_fault_handler(handler);
  return points;
}

void Programs::emit_fault_handler(llvm::Function* handler) {
  l_.ir.begin_subprogram(handler);
  l_.firing.begin_fault_handler(handler);
  for (const lang::Probe* probe : fault_probes_) {
    hook_ = &probe->owner->hook(*probe);
    fire(*probe);
  }
  l_.ir.b().CreateRet(l_.ir.const64(0));
}

abi::AttachPoint Programs::emit_program(const Site& site, size_t index) {
  const lang::Probe& first = *site.groups.front().probes.front();
  std::string name = program_name(first, index);
  // A program serving one hook may refuse the events none of its probes wants before any work.
  l_.firing.begin_program(l_.ir.begin_function(name, site.section), site.section, [&]() -> llvm::Value* {
    if (site.groups.size() != 1) return nullptr;
    return site.hook->program_filter(l_, site.section, site.groups.front().probes);
  });
  std::string label;
  for (const HookGroup& group : site.groups) {
    hook_ = group.hook;
    hook_->emit(l_, site.section, group.probes);
    for (const lang::Probe* probe : group.probes) label += (label.empty() ? "" : ", ") + probe->full_name();
  }
  l_.firing.end_program();
  l_.ir.b().CreateRet(l_.ir.const64(0));

  abi::AttachPoint point;
  point.kind = site.hook->attach_kind();
  point.program = name;
  point.clause = label;
  point.period_ns = site.hook->period_ns(first);
  point.every_cpu = site.hook->every_cpu(first);
  point.phase = site.hook->phase(first);
  site.hook->place(first, point);
  if (site.section.starts_with(abi::kBtfTracepointSection)) {
    std::string unreadable;
    if (const lang::BtfTypes* btf = l_.program.types->btf(&unreadable))
      point.btf_id =
          btf->find("btf_trace_" + site.section.substr(abi::kBtfTracepointSection.size()), BTF_KIND_TYPEDEF);
  }
  int64_t cpu = l_.program.options.number("cpu");
  if (cpu >= 0) {
    point.every_cpu = false;
    point.cpu = static_cast<int>(cpu);
  }
  return point;
}

// -x cpu=N: probes fire only on CPU N (on-demand programs run in dsched's own context).
llvm::Value* Programs::on_chosen_cpu() {
  int64_t cpu = l_.program.options.number("cpu");
  if (cpu < 0 || hook_->attach_kind() == abi::AttachPoint::Kind::OnDemand) return nullptr;
  return l_.ir.b().CreateICmpEQ(l_.ir.helper(BPF_FUNC_get_smp_processor_id, {}), l_.ir.const64(cpu));
}

void Programs::fire(const lang::Probe& probe, const Binding& binding) { fire(probe, binding, {}, nullptr); }

void Programs::fire_alike(const std::vector<const lang::Probe*>& alike, llvm::Value* index) {
  fire(*alike.front(), {}, alike, l_.ir.bounded(index, alike.size()));
}

void Programs::fire(const lang::Probe& probe, const Binding& binding, const std::vector<const lang::Probe*>& alike,
                    llvm::Value* index) {
  Ir& ir = l_.ir;
  auto& b = ir.b();
  llvm::BasicBlock* done = ir.new_block("fire.done");
  // The context task is computed, when first needed, in this firing's entry block.
  llvm::BasicBlock* entry = ir.new_block("fire.entry");
  l_.firing.begin_firing(probe, *hook_, binding, entry, alike, index);
  b.CreateBr(entry);
  b.SetInsertPoint(entry);
  llvm::BasicBlock* body = ir.new_block("fire.body");
  llvm::Value* guard = hook_->guard(l_);
  if (llvm::Value* chosen = on_chosen_cpu()) guard = guard ? b.CreateAnd(guard, chosen) : chosen;
  if (guard)
    b.CreateCondBr(guard, body, done);
  else
    b.CreateBr(body);
  b.SetInsertPoint(body);
  l_.firing.zero_clause_locals();
  for (const lang::Clause* clause : clauses_by_probe_.at(&probe)) {
    l_.firing.begin_clause();
    emit_clause(*clause);
  }
  b.CreateBr(done);
  b.SetInsertPoint(done);
}

// A clause records when it has an action that records data; an empty clause takes DTrace's default
// action, a per-fire line (not in quiet mode).
bool Programs::clause_records(const lang::Clause& clause) const {
  if (clause.statements.empty()) return !l_.program.options.quiet();
  return std::any_of(clause.statements.begin(), clause.statements.end(), [](const lang::StmtPtr& s) {
    return is_action(*s) && s->expr->function->records();
  });
}

namespace {

// Whether an expression calls a function whose value is a pointer: one into scratch memory
// (alloca(), copyin()) that later statements may use.
bool calls_for_pointer(const lang::Expr& e) {
  if (e.kind == lang::ExprKind::Call && e.type && e.type->is_pointer()) return true;
  return std::any_of(e.operands.begin(), e.operands.end(),
                     [](const lang::ExprPtr& operand) { return operand && calls_for_pointer(*operand); });
}

bool keeps_scratch(const lang::Stmt& stmt) {
  auto any = [](const std::vector<lang::ExprPtr>& exprs) {
    return std::any_of(exprs.begin(), exprs.end(), [](const lang::ExprPtr& e) { return e && calls_for_pointer(*e); });
  };
  return (stmt.expr && calls_for_pointer(*stmt.expr)) || any(stmt.keys) || any(stmt.args) ||
         (stmt.increment && calls_for_pointer(*stmt.increment));
}

// After exit() only END and ERROR clauses run, as DTrace runs no other once it drains (the
// clause that called it finishes).
bool runs_after_exit(const lang::Probe& probe) {
  return probe.provider == "dtrace" && (probe.name == "END" || probe.name == "ERROR");
}

}  // namespace

void Programs::emit_clause(const lang::Clause& clause) {
  Ir& ir = l_.ir;
  llvm::BasicBlock* next = ir.new_block("clause.next");
  const lang::Probe& probe = l_.firing.probe();
  // A clause fired alike for several probes records the epid of the one that fired, and each of
  // them gets the record layout, under its own name.
  llvm::Value* epid = l_.firing.per_probe([&](const lang::Probe& p) { return int64_t(epids_.at({&clause, &p})); });
  l_.records.begin_clause(probe, epids_.at({&clause, &probe}), epid, next);
  l_.variables.begin_clause(clause.predicate.get());
  if (l_.program.uses_exit && !runs_after_exit(probe) && !clause.continues) {
    llvm::BasicBlock* found = ir.new_block("exit.flag");
    llvm::BasicBlock* run = ir.new_block("clause.run");
    llvm::Value* flag = l_.maps.exit_flag();
    ir.b().CreateCondBr(ir.b().CreateICmpNE(flag, ir.const64(0)), found, run);
    ir.b().SetInsertPoint(found);
    llvm::Value* exited = ir.b().CreateLoad(ir.i64(), ir.b().CreateIntToPtr(flag, ir.ptr()));
    ir.b().CreateCondBr(ir.b().CreateICmpEQ(exited, ir.const64(0)), run, next);
    ir.b().SetInsertPoint(run);
  }
  if (clause.predicate) {
    llvm::BasicBlock* body = ir.new_block("clause.body");
    ir.b().CreateCondBr(l_.exprs.condition(*clause.predicate), body, next);
    ir.b().SetInsertPoint(body);
  }
  if (clause_records(clause)) l_.records.reserve();
  for (const lang::StmtPtr& stmt : clause.statements) {
    l_.records.next_action();
    Firing::ScratchMark mark = l_.firing.scratch_mark();
    if (stmt->kind == lang::StmtKind::Aggregate)
      aggregate(l_, *stmt);
    else
      l_.exprs.eval(*stmt->expr);
    // A statement's temporaries (texts, keys) are dead once it ends, so the next one reuses their
    // scratch; memory a pointer may still reach (alloca(), copyin()) stays for the clause.
    if (!keeps_scratch(*stmt)) l_.firing.release_scratch(mark);
  }
  l_.records.end_clause(clause);
  for (const lang::Probe* other : l_.firing.alike())
    if (other != &probe) l_.records.share_layout(epids_.at({&clause, &probe}), epids_.at({&clause, other}), *other);
  ir.b().CreateBr(next);
  ir.b().SetInsertPoint(next);
}

namespace {

// Owns the parts of the code generator for one program and wires them together.
class Generator {
 public:
  // The parts reach each other through lowering_, which is bound first and refers to parts built
  // after it: none of them is used before all are built.
  explicit Generator(const lang::Program& program)
      : lowering_{program, ir_, maps_, firing_, records_, exprs_, variables_, strings_, programs_},
        module_("dsched"), ir_(module_), maps_(lowering_), firing_(lowering_),
        records_(lowering_), exprs_(lowering_), variables_(lowering_), strings_(lowering_), programs_(lowering_) {}

  abi::CompiledProgram run(const Dumps& dumps, const std::function<void(const std::vector<abi::MapShape>&)>& maps_laid_out) {
    const lang::Program& program = lowering_.program;
    int64_t cpu = program.options.number("cpu");
    if (cpu >= std::max(libbpf_num_possible_cpus(), 1))
      lang::fail({}, lang::ErrTag::None, "invalid value for option cpu: there is no CPU " + std::to_string(cpu));
    maps_.define();
    if (maps_laid_out) maps_laid_out(maps_.early_shapes());
    abi::CompiledProgram out;
    out.attach_points = programs_.emit_all();
    maps_.finish(firing_.scratch_high_water());
    out.object = module_.emit_object(dumps.lowered_ir, dumps.optimized_ir);
    out.records = records_.take_layouts();
    out.aggregations = maps_.aggregation_specs();
    out.ring_buffer_map = "events";
    out.drops_map = "drops";
    out.options = program.options;
    out.stamped_records = program.stamp_records;
    return out;
  }

 private:
  Lowering lowering_;
  BpfModule module_;
  Ir ir_;
  Maps maps_;
  Firing firing_;
  Records records_;
  Exprs exprs_;
  Variables variables_;
  Strings strings_;
  Programs programs_;
};

}  // namespace

abi::CompiledProgram generate(const lang::Program& program, const Dumps& dumps,
                              const std::function<void(const std::vector<abi::MapShape>&)>& maps_laid_out) {
  return Generator(program).run(dumps, maps_laid_out);
}

}  // namespace dsched::codegen
