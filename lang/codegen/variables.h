// D variables: global scalars (one array map), associative arrays (a hash map each; storing 0
// deletes, as in DTrace), thread-locals (task local storage of the context task) and clause-locals
// (per-CPU scratch, shared by the clauses of one firing).
#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "lang/codegen/lowering.h"
#include "lang/codegen/value.h"

namespace dsched::codegen {

class Variables {
 public:
  explicit Variables(Lowering& lowering) : l_(lowering) {}

  // A D variable, or a member or element of a struct or array held in one (lang::is_d_object).
  // Structs, arrays and strings load as pointers to where they live.
  Value load(const lang::Expr& variable);
  void store(const lang::Expr& variable, const Value& value);
  // ++, -- and compound assignments: applies `change` to the variable's value and writes the result
  // back, looking an associative-array element or the thread-local storage up once. An absent
  // element reads as 0 and is created unless the result is 0; a result of 0 deletes an element.
  // Returns the values before and after.
  using Change = std::function<Value(const Value& current)>;
  std::pair<Value, Value> update(const lang::Expr& variable, const Change& change);
  // A clause starts. The element lookups its predicate makes on every path, with keys that have
  // one value throughout the firing, serve the reads and updates of the same elements in its body
  // until a store to their array.
  void begin_clause(const lang::Expr* predicate);
  // A member's place inside a struct in BPF memory: its type, and for a bit-field its width, its
  // signedness, and the bit where it starts in the smallest aligned unit (1, 2, 4 or 8 bytes)
  // that holds it.
  struct Field {
    const lang::Type* type;
    uint64_t bits = 0;
    uint64_t shift = 0;
    uint64_t unit = 0;
    bool is_signed = false;
  };
  static Field field_of(const lang::Type* type, uint64_t offset_bits, uint64_t bitfield_bits, bool is_signed);
  static Field field_of(const lang::Expr& e) {
    return field_of(e.type, e.offset_bits, e.bitfield_bits, e.bitfield_signed);
  }
  // The byte offset of the storage unit that holds a member at `offset_bits`.
  static uint64_t unit_offset(const Field& field, uint64_t offset_bits) { return (offset_bits - field.shift) / 8; }
  // Writes `value` into BPF memory at `at`: integers at their size, strings, structs and arrays
  // copied whole (from kernel memory when the value is there), the integer 0 clearing an object.
  void write(llvm::Value* at, const Field& field, const Value& value);
  // A packed key in scratch: each integer as Maps::integer_key_width() bytes, each string as
  // strsize bytes; after `leading` (an i64) when given.
  llvm::Value* key(const std::vector<const lang::Expr*>& keys, const std::vector<const lang::Type*>& types,
                   llvm::Value* leading = nullptr);

 private:
  // Where a variable lives: `base` + `offset`. For associative-array elements and thread-locals
  // the base may be null (no element, no storage): callers test it before adding the offset,
  // since the verifier forbids arithmetic on a pointer that may be null.
  struct Slot {
    llvm::Value* base;
    uint64_t offset = 0;
    bool may_be_null = false;
    llvm::Value* key = nullptr;  // an element's key, when this access built it
  };
  // Read: a slot to read (thread-locals share one lookup per firing); Create: to write, created
  // when absent; Clear: to store 0 into, never created (a thread-local is looked up on that path).
  enum class Access { Read, Create, Clear };
  Slot slot(const lang::Expr& e, Access access);
  llvm::Value* element_key(const lang::Expr& e);
  // A scalar variable's value at a slot (0 when it is absent).
  Value read_scalar(const Slot& slot, const lang::Type* type);
  // Stores a value that is not 0 into a whole scalar variable, creating its element or storage;
  // `key`, when given, is the element's key already built.
  void create(const lang::Expr& variable, const Value& value, llvm::Value* key);
  // Counts a store that found no room for `variable`: a full array, or a thread whose storage
  // the kernel would not create.
  void count_lost_store(const lang::Expr& variable);
  // Deletes an element (or zeroes a thread-local); `key` as for create().
  void erase(const lang::Expr& variable, llvm::Value* key);
  // erase() when `is_zero` (i1) holds, else write().
  void erase_or(const lang::Expr& variable, llvm::Value* is_zero, llvm::Value* key, const std::function<void()>& write);
  // The element lookup kept from the clause's predicate for element `e`, or null.
  llvm::Value* kept_lookup(const lang::Expr& e) const;
  void forget_lookups(const lang::Expr& variable);
  // Emits present(pointer) when the slot exists and absent() otherwise; returns to a join block.
  template <typename Present, typename Absent>
  void with_slot(const Slot& slot, Present present, Absent absent);
  // The address of part `e` (a member or element chain) of the variable stored at `storage`.
  llvm::Value* part_address(const lang::Expr& e, llvm::Value* storage);
  Value read(llvm::Value* at, const Field& field);

  Lowering& l_;
  static constexpr uint64_t kStackKeyBytes = 24;
  llvm::Value* stack_key_ = nullptr;  // one per function: a short key lives until its lookups are made
  llvm::Function* stack_key_of_ = nullptr;
  llvm::Value* value_word_ = nullptr;  // one per function: the value a new element is created with
  llvm::Function* value_word_of_ = nullptr;
  std::vector<const lang::Expr*> keepable_;  // the predicate's element reads whose lookup is kept
  struct KeptLookup {
    const lang::Expr* element;
    llvm::Instruction* pointer;
  };
  std::vector<KeptLookup> kept_;
};

}  // namespace dsched::codegen
