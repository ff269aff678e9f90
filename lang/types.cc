#include "types.h"

#include <linux/btf.h>

#include "btf_types.h"

namespace dsched::lang {

bool Type::is_char_sequence() const {
  return (kind == TypeKind::Array || kind == TypeKind::Pointer) && target &&
         target->kind == TypeKind::Integer && target->size == 1;
}

const std::vector<Member>& Type::loaded_members() const {
  if (!members_loaded_) {
    members_loaded_ = true;
    btf_->load_members(*this);
  }
  return members_;
}

void Type::convert_type(Member& member) const {
  if (!member.type) member.type = btf_->convert(member.btf_type);
}

const std::vector<Member>& Type::members() const {
  loaded_members();
  for (Member& member : members_) convert_type(member);
  return members_;
}

std::optional<Member> Type::find_member(const std::string& member_name) const {
  if (!indexed_) {
    indexed_ = true;
    loaded_members();
    for (Member& member : members_) {
      if (!member.name.empty()) {
        member_index_.emplace(member.name, member);
        continue;
      }
      convert_type(member);
      if (!member.type->is_record()) continue;
      member.type->find_member("");  // builds the inner index
      for (auto [name, inner] : member.type->member_index_) {
        inner.offset_bits += member.offset_bits;
        member_index_.emplace(name, inner);
      }
    }
  }
  auto it = member_index_.find(member_name);
  if (it == member_index_.end()) return std::nullopt;
  convert_type(it->second);
  return it->second;
}

std::string type_name(const Type* type) {
  if (!type) return "?";
  switch (type->kind) {
    case TypeKind::Void: return "void";
    case TypeKind::Integer: case TypeKind::Float: return type->name;
    case TypeKind::String: return "string";
    case TypeKind::Stack: return type->addresses.user ? "ustack" : "stack";
    case TypeKind::Symbol: return type->addresses.user ? "_usymaddr" : "_symaddr";
    case TypeKind::Function: return "function";
    case TypeKind::Struct: return "struct " + (type->name.empty() ? "<anon>" : type->name);
    case TypeKind::Union: return "union " + (type->name.empty() ? "<anon>" : type->name);
    case TypeKind::Pointer: {
      std::string inner = type_name(type->target);
      return inner + (inner.back() == '*' ? "*" : " *");
    }
    case TypeKind::Array: return type_name(type->target) + " [" + std::to_string(type->count) + "]";
  }
  return "?";
}

TypeUniverse::TypeUniverse(uint64_t string_size) {
  Type v;
  void_ = make(v);
  Type s;
  s.kind = TypeKind::String;
  s.size = string_size;
  string_mutable_ = make(s);
  string_ = string_mutable_;
}

TypeUniverse::~TypeUniverse() = default;

Type* TypeUniverse::make(Type prototype) {
  types_.push_back(std::move(prototype));
  return &types_.back();
}

const Type* TypeUniverse::integer(uint64_t size, bool is_signed) {
  auto key = std::make_pair(size, is_signed);
  if (auto it = integers_.find(key); it != integers_.end()) return it->second;
  static const char* const names[4][2] = {{"unsigned char", "char"},
                                          {"unsigned short", "short"},
                                          {"unsigned int", "int"},
                                          {"unsigned long long", "long long"}};
  int index = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3;
  Type t;
  t.kind = TypeKind::Integer;
  t.name = names[index][is_signed];
  t.size = size;
  t.is_signed = is_signed;
  const Type* result = make(t);
  integers_.emplace(key, result);
  return result;
}

const Type* TypeUniverse::named_integer(const std::string& name, uint64_t size, bool is_signed) {
  std::string key = name + '/' + std::to_string(size) + (is_signed ? "s" : "u");
  if (auto it = named_integers_.find(key); it != named_integers_.end()) return it->second;
  Type t;
  t.kind = TypeKind::Integer;
  t.name = name;
  t.size = size;
  t.is_signed = is_signed;
  const Type* result = make(t);
  named_integers_.emplace(key, result);
  return result;
}

const Type* TypeUniverse::enum_type(const std::string& tag, uint64_t size, bool is_signed,
                                    std::vector<std::pair<std::string, int64_t>> enumerators) {
  Type t;
  t.kind = TypeKind::Integer;
  t.name = "enum " + tag;
  t.size = size;
  t.is_signed = is_signed;
  t.enumerators = std::move(enumerators);
  return make(t);
}

const Type* TypeUniverse::pointer_to(const Type* target) {
  if (auto it = pointers_.find(target); it != pointers_.end()) return it->second;
  Type t;
  t.kind = TypeKind::Pointer;
  t.size = 8;
  t.target = target;
  const Type* result = make(t);
  pointers_.emplace(target, result);
  return result;
}

const Type* TypeUniverse::array_of(const Type* element, uint64_t count) {
  auto key = std::make_pair(element, count);
  if (auto it = arrays_.find(key); it != arrays_.end()) return it->second;
  Type t;
  t.kind = TypeKind::Array;
  t.target = element;
  t.count = count;
  t.size = element->size * count;
  const Type* result = make(t);
  arrays_.emplace(key, result);
  return result;
}

const Type* TypeUniverse::address_type(TypeKind kind, const abi::AddressLayout& layout) {
  auto key = std::make_tuple(kind, layout.user, layout.frames, layout.form);
  auto found = addresses_.find(key);
  if (found != addresses_.end()) return found->second;
  Type t;
  t.kind = kind;
  t.addresses = layout;
  t.size = layout.byte_size();
  return addresses_[key] = make(t);
}

const Type* TypeUniverse::stack(bool user, uint32_t frames) {
  return address_type(TypeKind::Stack, {user, frames, abi::AddressForm::Frame});
}

const Type* TypeUniverse::symbol(bool user, abi::AddressForm form) {
  return address_type(TypeKind::Symbol, {user, 1, form});
}

const Type* TypeUniverse::float_type(const std::string& name, uint64_t size) {
  Type t;
  t.kind = TypeKind::Float;
  t.name = name;
  t.size = size;
  return make(t);
}

const Type* TypeUniverse::function_type() {
  if (!function_) {
    Type t;
    t.kind = TypeKind::Function;
    function_ = make(t);
  }
  return function_;
}

Type* TypeUniverse::new_record(TypeKind kind, const std::string& tag) {
  Type t;
  t.kind = kind;
  t.name = tag;
  t.complete = false;
  return make(t);
}

void TypeUniverse::set_members(Type* record, std::vector<Member> members, uint64_t size) {
  record->members_ = std::move(members);
  record->member_index_.clear();
  record->indexed_ = false;
  record->size = size;
  record->complete = true;
}

BtfTypes* TypeUniverse::btf(std::string* error) {
  if (!btf_ && btf_error_.empty()) {
    btf_ = BtfTypes::open(BtfTypes::kVmlinuxPath, *this, &btf_error_);
    if (!btf_ && btf_error_.empty()) btf_error_ = "cannot load kernel BTF";
  }
  if (!btf_ && error) *error = btf_error_;
  return btf_.get();
}

const Type* TypeUniverse::kernel_record(TypeKind kind, const std::string& tag, std::string* error) {
  BtfTypes* btf = this->btf(error);
  if (!btf) return nullptr;
  uint32_t id = btf->find(tag, kind == TypeKind::Union ? BTF_KIND_UNION : BTF_KIND_STRUCT);
  return id ? btf->convert(id) : nullptr;
}

const Type* TypeUniverse::kernel_enum(const std::string& tag, std::string* error) {
  BtfTypes* btf = this->btf(error);
  if (!btf) return nullptr;
  uint32_t id = btf->find(tag, BTF_KIND_ENUM);
  if (!id) id = btf->find(tag, BTF_KIND_ENUM64);
  return id ? btf->convert(id) : nullptr;
}

const Type* promoted(TypeUniverse& types, const Type* a) {
  if (a->size < 4) return types.integer(4, true);
  // An enum computes as the integer it is, as in C: its result is no longer one of its values.
  if (a->is_integer() && a->name.starts_with("enum ")) return types.integer(a->size, a->is_signed);
  return a;
}

const Type* arithmetic_result(TypeUniverse& types, const Type* a, const Type* b) {
  a = promoted(types, a);
  b = promoted(types, b);
  uint64_t size = std::max(a->size, b->size);
  bool is_signed;
  if (a->size == b->size) {
    is_signed = a->is_signed && b->is_signed;
  } else {
    is_signed = (a->size > b->size ? a : b)->is_signed;
  }
  if (a->size == size && a->is_signed == is_signed) return a;
  if (b->size == size && b->is_signed == is_signed) return b;
  return types.integer(size, is_signed);
}

}  // namespace dsched::lang
