#include "lang/codegen/maps.h"

#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include <algorithm>
#include <functional>

#include "lang/builtins/builtin.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/diagnostics.h"

namespace dsched::codegen {
namespace {

// Aggregations and associative arrays are preallocated hash maps. Without preallocation each new
// key takes an element from a per-CPU cache of the kernel's BPF allocator, which starts nearly
// empty and is refilled only once interrupts are enabled again: a burst of new keys inside one
// sched_switch failed, as drops no size cured. Preallocating a per-CPU hash costs start-up time
// that grows faster than its size (here about 3 ms for 16k entries, 45 ms for 32k, 0.7 s for
// 256k), so an aggregation holds at most 16k keys unless aggsize is set (docs/reliability.md).
constexpr uint64_t kDefaultAggregationKeys = 1 << 14;

// The ring buffer's size: a power of two of at least a page. The option table refuses more than
// 1g (with bufresize=auto, the loader halves a buffer the kernel cannot allocate).
uint32_t ring_size(int64_t requested) {
  uint64_t size = 4096;
  while (size < static_cast<uint64_t>(requested)) size <<= 1;
  return static_cast<uint32_t>(size);
}

abi::KeyComponent key_component(const lang::Type* key, uint64_t string_bytes, uint64_t integer_width) {
  if (key->is_string()) return abi::KeyComponent::string(static_cast<unsigned>(string_bytes));
  if (key->is_address())
    return abi::KeyComponent::address(
        key->kind == lang::TypeKind::Stack ? abi::KeyComponent::Kind::Stack : abi::KeyComponent::Kind::Symbol,
        key->addresses);
  return abi::KeyComponent::integer(static_cast<unsigned>(key->size), key->is_integer() && key->is_signed,
                                    static_cast<unsigned>(integer_width));
}

// For each aggregation, how many keys it can have when every statement keys it by one built-in
// variable whose values the machine bounds (@[cpu]), else 0.
std::vector<uint64_t> bounded_keys(const lang::Program& program) {
  std::vector<uint64_t> bound(program.aggregations.size(), 0);
  std::vector<bool> unbounded(program.aggregations.size(), false);
  for (const lang::Clause& clause : program.clauses)
    for (const lang::StmtPtr& stmt : clause.statements) {
      if (stmt->kind != lang::StmtKind::Aggregate) continue;
      const size_t id = size_t(stmt->agg_id);
      const lang::Expr* key = stmt->keys.size() == 1 ? stmt->keys[0].get() : nullptr;
      const uint64_t values = key && key->kind == lang::ExprKind::Builtin ? key->variable->distinct_values() : 0;
      if (values == 0) unbounded[id] = true;
      bound[id] = std::max(bound[id], values);
    }
  for (size_t id = 0; id < bound.size(); ++id)
    if (unbounded[id]) bound[id] = 0;
  return bound;
}

}  // namespace

uint64_t Maps::storage_size(const lang::Type* type) { return type->is_scalar() ? 8 : round8(type->size); }

uint64_t Maps::integer_key_width(const std::vector<const lang::Type*>& types) {
  bool narrow =
      std::all_of(types.begin(), types.end(), [](const lang::Type* t) { return t->is_integer() && t->size <= 4; });
  return narrow ? 4 : 8;
}

uint64_t Maps::key_size(const std::vector<const lang::Type*>& types) const {
  uint64_t size = 0;
  for (const lang::Type* t : types)
    size += t->is_string() ? l_.program.options.string_bytes() : t->is_address() ? t->size : integer_key_width(types);
  return size;
}

void Maps::layout_variables() {
  auto place = [](const std::vector<lang::Variable>& vars, std::vector<uint64_t>& offsets,
                  const std::function<bool(const lang::Variable&)>& elsewhere) {
    offsets.assign(vars.size(), 0);
    uint64_t total = 0;
    for (const lang::Variable& var : vars) {
      if (elsewhere(var)) continue;
      offsets[size_t(var.id)] = total;
      total += storage_size(var.type);
    }
    return total;
  };
  const lang::Program& program = l_.program;
  auto associative = [](const lang::Variable& var) { return !var.key_types.empty(); };
  globals_size_ = std::max<uint64_t>(place(program.globals, global_offsets_, associative), 8);
  self_size_ = std::max<uint64_t>(place(program.thread_locals, self_offsets_, associative), 8);
  this_on_stack_.assign(program.clause_locals.size(), false);
  size_t on_stack = 0;
  this_size_ = place(program.clause_locals, this_offsets_, [&](const lang::Variable& var) {
    if (!var.type->is_scalar() || !var.key_types.empty() || on_stack == kStackClauseLocals) return false;
    ++on_stack;
    this_on_stack_[size_t(var.id)] = true;
    return true;
  });
}

void Maps::define() {
  layout_variables();
  const lang::Program& program = l_.program;
  const abi::Options& options = program.options;
  BpfModule& module = l_.ir.module();
  // Under bufpolicy=ring, bufsize bounds what each CPU keeps in user space (runtime/record_ring.h);
  // the kernel's buffer only carries records there and must not drop them: at least the default.
  int64_t transport = options.number("bufsize");
  if (options.text("bufpolicy") == "ring") transport = std::max(transport, abi::find_option("bufsize")->default_number);
  MapSpec events{"events", BPF_MAP_TYPE_RINGBUF, ring_size(transport), 0, 0, 0, false};
  events_ = module.define_map(events);
  // The kernel zeroes the ring's pages as it creates it (a millisecond for the default 4 MB).
  shapes_.push_back({events.name, events.type, events.key_size, events.value_size, events.max_entries, events.flags});
  drops_ = module.define_map(
      {"drops", BPF_MAP_TYPE_PERCPU_ARRAY, static_cast<uint32_t>(abi::DropCounter::Count), 4, 8, 0, false});
  globals_ = module.define_map({"globals", BPF_MAP_TYPE_ARRAY, 1, 4, static_cast<uint32_t>(globals_size_), 0, false});
  if (std::any_of(program.thread_locals.begin(), program.thread_locals.end(),
                  [](const lang::Variable& var) { return var.key_types.empty(); }))
    self_ = module.define_map(
        {"self_vars", BPF_MAP_TYPE_TASK_STORAGE, 0, 4, static_cast<uint32_t>(self_size_), BPF_F_NO_PREALLOC, true});
  uint64_t dynvarsize = static_cast<uint64_t>(options.number("dynvarsize"));
  auto define_assoc = [&](const lang::Variable& var, const char* prefix, uint64_t leading_bytes) {
    if (var.key_types.empty()) return;
    uint64_t key_bytes = leading_bytes + key_size(var.key_types);
    uint64_t entry = key_bytes + storage_size(var.type);
    uint32_t entries = static_cast<uint32_t>(std::clamp<uint64_t>(dynvarsize / (entry + 64), 1, 1 << 20));
    // Preallocated (see kDefaultAggregationKeys); a plain hash costs about 1 ms per 64k entries.
    assoc_[{var.scope, var.id}] =
        module.define_map({prefix + var.name, BPF_MAP_TYPE_HASH, entries, static_cast<uint32_t>(key_bytes),
                           static_cast<uint32_t>(storage_size(var.type)), 0, false});
    l_.ir.zeroes(storage_size(var.type));
  };
  for (const lang::Variable& var : program.globals) define_assoc(var, "var_", 0);
  for (const lang::Variable& var : program.thread_locals) define_assoc(var, "self_", kThreadKeyBytes);
  if (program.uses_speculation)
    speculations_ = module.define_map(
        {"spec_busy", BPF_MAP_TYPE_ARRAY, static_cast<uint32_t>(options.nspec() + 1), 4, 8, 0, false});
  l_.ir.zeroes(options.string_bytes());  // an absent string variable reads from them
  scratch_ = new llvm::GlobalVariable(module.module(), l_.ir.i8(), false, llvm::GlobalValue::ExternalLinkage,
                                      l_.ir.b().getInt8(0), "scratch_placeholder");
  define_aggregations();
}

void Maps::define_aggregations() {
  uint64_t aggsize = static_cast<uint64_t>(l_.program.options.number("aggsize"));
  const std::vector<uint64_t> bounded = bounded_keys(l_.program);
  for (const lang::Aggregation& agg : l_.program.aggregations) {
    abi::AggregationSpec spec;
    spec.id = static_cast<uint32_t>(agg.id);
    spec.name = agg.name;
    spec.function = agg.function;
    spec.params = agg.params;
    for (const lang::Type* key : agg.key_types)
      spec.keys.push_back(key_component(key, l_.program.options.string_bytes(), integer_key_width(agg.key_types)));
    uint64_t value_size = spec.map_value_words() * 8;
    std::string name = abi::aggregation_map_name(spec.id);
    BpfModule& module = l_.ir.module();
    // As in DTrace, the aggregation buffer asked for must hold at least one entry of each; an
    // aggregation without keys is found by a word of its own.
    uint64_t entry = (spec.keys.empty() ? 8 : spec.key_size()) + value_size;
    if (aggsize < entry)
      throw lang::CompileError({}, lang::ErrTag::None,
                               "invalid value for option aggsize: " + std::to_string(aggsize) + " (an entry of @" +
                                   agg.name + " takes " + std::to_string(entry) + " bytes)",
                               false);
    if (spec.keys.empty()) {
      aggregations_.push_back(
          module.define_map({name, BPF_MAP_TYPE_PERCPU_ARRAY, 1, 4, static_cast<uint32_t>(value_size), 0, false}));
    } else {
      uint64_t limit = l_.program.options.is_set("aggsize") ? 1 << 20 : kDefaultAggregationKeys;
      uint32_t entries = static_cast<uint32_t>(std::clamp<uint64_t>(aggsize / entry, 1, limit));
      // @[cpu] never has more keys than CPUs: a map of 16k preallocated entries per CPU would
      // cost start-up time and memory for nothing.
      if (uint64_t keys = bounded[size_t(agg.id)]) entries = static_cast<uint32_t>(std::min<uint64_t>(entries, keys));
      MapSpec map{name, BPF_MAP_TYPE_PERCPU_HASH, entries, static_cast<uint32_t>(spec.key_size()),
                  static_cast<uint32_t>(value_size), 0, false};
      aggregations_.push_back(module.define_map(map));
      shapes_.push_back({map.name, map.type, map.key_size, map.value_size, map.max_entries, map.flags});
    }
    l_.ir.zeroes(value_size);
    specs_.push_back(std::move(spec));
  }
}

llvm::GlobalVariable* Maps::hook_map(const MapSpec& spec) {
  auto [it, inserted] = hook_maps_.try_emplace(spec.name, nullptr);
  if (inserted) {
    MapSpec defined = spec.type == BPF_MAP_TYPE_PERCPU_ARRAY ? per_cpu_array(spec) : spec;
    it->second = l_.ir.module().define_map(defined);
    if (defined.type != spec.type) cpu_indexed_.insert(it->second);
  }
  return it->second;
}

MapSpec Maps::per_cpu_array(MapSpec spec) {
  spec.value_size = (std::max<uint32_t>(spec.value_size, 8) + 7) & ~7u;
  if (spec.value_size <= abi::kLargestPerCpuValue) return spec;
  spec.type = BPF_MAP_TYPE_ARRAY;
  spec.max_entries = static_cast<uint32_t>(std::max(libbpf_num_possible_cpus(), 1));
  return spec;
}

void Maps::note_per_cpu_key(llvm::GlobalVariable* map, llvm::StoreInst* key_store) {
  if (cpu_indexed_.count(map))
    key_by_cpu(key_store);
  else if (map == scratch_)
    scratch_keys_.push_back(key_store);
}

void Maps::key_by_cpu(llvm::StoreInst* key_store) {
  llvm::IRBuilderBase::InsertPointGuard guard(l_.ir.b());
  l_.ir.b().SetInsertPoint(key_store);
  llvm::Value* cpu = l_.ir.helper(BPF_FUNC_get_smp_processor_id, {});
  key_store->setOperand(0, l_.ir.b().CreateTrunc(cpu, l_.ir.b().getInt32Ty()));
}

llvm::Value* Maps::index_key(uint32_t index) {
  Ir& ir = l_.ir;
  if (index_key_of_ != ir.function()) {
    index_key_ = ir.entry_alloca(ir.b().getInt32Ty());
    index_key_of_ = ir.function();
  }
  ir.b().CreateStore(ir.b().getInt32(index), index_key_);
  return index_key_;
}

llvm::Value* Maps::exit_flag() {
  return l_.ir.helper(BPF_FUNC_map_lookup_elem,
                      {hook_map({"exited", BPF_MAP_TYPE_ARRAY, 1, 4, 8, 0, false}), index_key(0)});
}

void Maps::count_drop(abi::DropCounter counter) {
  Ir& ir = l_.ir;
  llvm::Value* slot = ir.helper(BPF_FUNC_map_lookup_elem, {drops_, index_key(static_cast<uint32_t>(counter))});
  ir.when(ir.b().CreateICmpNE(slot, ir.const64(0)), [&] {
    llvm::Value* p = ir.b().CreateIntToPtr(slot, ir.ptr());
    ir.b().CreateStore(ir.b().CreateAdd(ir.b().CreateLoad(ir.i64(), p), ir.const64(1)), p);
  }, "drop");
}

void Maps::finish(uint64_t scratch_bytes) {
  MapSpec spec = per_cpu_array(
      {"scratch", BPF_MAP_TYPE_PERCPU_ARRAY, kScratchLevels, 4, static_cast<uint32_t>(scratch_bytes), 0, false});
  if (spec.type != BPF_MAP_TYPE_PERCPU_ARRAY) {
    // Too large for per-CPU storage: each CPU's levels follow one another, level keys become
    // cpu * kScratchLevels + level.
    spec.max_entries *= kScratchLevels;
    for (llvm::StoreInst* key_store : scratch_keys_) {
      llvm::IRBuilderBase::InsertPointGuard guard(l_.ir.b());
      l_.ir.b().SetInsertPoint(key_store);
      llvm::Value* cpu = l_.ir.b().CreateTrunc(l_.ir.helper(BPF_FUNC_get_smp_processor_id, {}), l_.ir.b().getInt32Ty());
      llvm::Value* level = key_store->getValueOperand();
      key_store->setOperand(0, l_.ir.b().CreateAdd(l_.ir.b().CreateMul(cpu, l_.ir.b().getInt32(kScratchLevels)), level));
    }
  }
  auto* scratch = l_.ir.module().define_map(spec);
  scratch_->replaceAllUsesWith(scratch);
  scratch_->eraseFromParent();
  scratch_ = scratch;
  l_.ir.finish_zeroes();
}

}  // namespace dsched::codegen
