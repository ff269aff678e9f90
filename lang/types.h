// D types: integers, pointers, arrays, strings, structs/unions (declared in D or taken from the
// kernel's BTF), void, and the few opaque kinds D needs (stacks, functions, floats).
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <tuple>
#include <vector>

#include "abi/value.h"

namespace dsched::lang {

class BtfTypes;
struct Type;

enum class TypeKind {
  Void,
  Integer,
  Pointer,
  Array,
  String,    // D string: NUL-terminated, of at most strsize characters; `size` is its storage
  Struct,
  Union,
  Function,  // a kernel function prototype; only ever seen behind a pointer
  Float,     // kernel floats can be named but not operated on
  Stack,     // the result of stack()/ustack(): only usable as a key or traced
  Symbol,    // sym(), mod(), usym()...: an address that prints as a name
};

struct Member {
  std::string name;            // empty for an anonymous struct/union member
  const Type* type = nullptr;  // null until needed for a kernel struct's member: see btf_type
  uint64_t offset_bits = 0;    // from the start of the enclosing struct
  uint32_t bitfield_bits = 0;  // 0 unless a bit-field
  uint32_t btf_type = 0;       // a kernel member's type in BTF, converted when first needed
};

struct Type {
  TypeKind kind = TypeKind::Void;
  std::string name;          // integers: "int", "uint64_t"...; structs: the tag (may be empty)
  uint64_t size = 0;         // bytes; 0 for void, functions and incomplete structs
  bool is_signed = false;    // integers only
  bool complete = true;      // false for a forward-declared struct/union
  abi::AddressLayout addresses;  // Stack and Symbol: frames, user space, printed form
  const Type* target = nullptr;  // Pointer: pointee; Array: element
  uint64_t count = 0;        // Array: number of elements
  uint32_t btf_id = 0;       // nonzero for kernel types: their id in vmlinux BTF
  // An enum (an integer named "enum tag"): its enumerators, which print() names values by.
  std::vector<std::pair<std::string, int64_t>> enumerators;

  bool is_integer() const { return kind == TypeKind::Integer; }
  bool is_pointer() const { return kind == TypeKind::Pointer; }
  bool is_array() const { return kind == TypeKind::Array; }
  bool is_string() const { return kind == TypeKind::String; }
  bool is_void() const { return kind == TypeKind::Void; }
  // Stacks and symbolic addresses: bytes laid out as `addresses` says.
  bool is_address() const { return kind == TypeKind::Stack || kind == TypeKind::Symbol; }
  bool is_record() const { return kind == TypeKind::Struct || kind == TypeKind::Union; }
  // Integers and pointers: what D can compute with, compare and test for truth.
  bool is_scalar() const { return is_integer() || is_pointer(); }
  // char[N] and char *: text that stringof() turns into a D string.
  bool is_char_sequence() const;

  // Struct/union members, in declaration order, every type converted. Kernel structs load theirs
  // on first need, and find_member() converts only the member it finds, so a script that reads two
  // members of task_struct does not convert the types of its 250.
  const std::vector<Member>& members() const;
  // Finds a member by name, looking through anonymous struct/union members; the returned
  // offset is relative to this type.
  std::optional<Member> find_member(const std::string& member_name) const;

 private:
  friend class TypeUniverse;
  friend class BtfTypes;
  const std::vector<Member>& loaded_members() const;  // types possibly not converted yet
  void convert_type(Member& member) const;
  mutable std::vector<Member> members_;
  mutable bool members_loaded_ = true;
  // Every member by name, anonymous members' members included (first declared wins), built on the
  // first lookup: kernel structs have hundreds of members and scripts read a few many times.
  mutable std::unordered_map<std::string, Member> member_index_;
  mutable bool indexed_ = false;
  const BtfTypes* btf_ = nullptr;  // kernel structs: where members and their types come from
};

// "int", "uint64_t", "struct task_struct *", "char [16]", "string".
std::string type_name(const Type* type);

// Owns every type of a program: D's built-in and declared types and the kernel types that the
// program touched. Types never move, so `const Type*` is their identity.
class TypeUniverse {
 public:
  explicit TypeUniverse(uint64_t string_size);
  ~TypeUniverse();
  TypeUniverse(const TypeUniverse&) = delete;
  TypeUniverse& operator=(const TypeUniverse&) = delete;

  const Type* void_type() const { return void_; }
  const Type* string_type() const { return string_; }
  const Type* integer(uint64_t size, bool is_signed);  // canonical "int", "unsigned long long"...
  const Type* named_integer(const std::string& name, uint64_t size, bool is_signed);
  // A new enum: an integer named "enum tag" with its enumerators.
  const Type* enum_type(const std::string& tag, uint64_t size, bool is_signed,
                        std::vector<std::pair<std::string, int64_t>> enumerators);
  const Type* pointer_to(const Type* target);
  const Type* array_of(const Type* element, uint64_t count);
  const Type* stack(bool user, uint32_t frames);
  const Type* symbol(bool user, abi::AddressForm form);
  const Type* float_type(const std::string& name, uint64_t size);
  const Type* function_type();

  // A new D-declared struct or union; members are added once its body has been checked.
  Type* new_record(TypeKind kind, const std::string& tag);
  static void set_members(Type* record, std::vector<Member> members, uint64_t size);

  // A kernel struct/union from /sys/kernel/btf/vmlinux, opened on first use; nullptr when not
  // found. On failure to read BTF, `error` (if not null) says why.
  const Type* kernel_record(TypeKind kind, const std::string& tag, std::string* error);
  // The kernel's enum `tag` (an integer type named "enum tag"), or nullptr.
  const Type* kernel_enum(const std::string& tag, std::string* error);
  BtfTypes* btf(std::string* error);
  const BtfTypes* loaded_btf() const { return btf_.get(); }  // null if never opened

  uint64_t string_size() const { return string_->size; }
  void set_string_size(uint64_t size) { string_mutable_->size = size; }

  Type* make(Type prototype);  // used by the BTF converter

 private:
  std::deque<Type> types_;
  const Type* void_ = nullptr;
  const Type* string_ = nullptr;
  Type* string_mutable_ = nullptr;
  std::map<std::pair<uint64_t, bool>, const Type*> integers_;
  std::map<std::string, const Type*> named_integers_;
  std::map<const Type*, const Type*> pointers_;
  std::map<std::pair<const Type*, uint64_t>, const Type*> arrays_;
  std::map<std::tuple<TypeKind, bool, uint32_t, abi::AddressForm>, const Type*> addresses_;
  const Type* address_type(TypeKind kind, const abi::AddressLayout& layout);
  const Type* function_ = nullptr;
  std::unique_ptr<BtfTypes> btf_;
  std::string btf_error_;
};

// C's usual arithmetic conversions for two integer operands (promotion to int first).
const Type* arithmetic_result(TypeUniverse& types, const Type* a, const Type* b);
// The promoted type of one integer operand (unary -, ~, shifts).
const Type* promoted(TypeUniverse& types, const Type* a);

}  // namespace dsched::lang
