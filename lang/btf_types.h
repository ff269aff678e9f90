// Lazy reader of the kernel's BTF (/sys/kernel/btf/vmlinux). Opening maps the file (or reads it
// where mapping is refused) and checks its header. Where each type starts is learnt by walking
// the type section only as far as a lookup needs (a few words per type). Types are converted to
// D types only when a script reaches them, and a struct's members only when one is accessed.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

struct btf_type;

namespace dsched::lang {

class TypeUniverse;
struct Type;

class BtfTypes {
 public:
  static constexpr const char* kVmlinuxPath = "/sys/kernel/btf/vmlinux";

  // nullptr on failure, with `error` saying why (missing file, malformed BTF).
  ~BtfTypes();
  BtfTypes(const BtfTypes&) = delete;
  BtfTypes& operator=(const BtfTypes&) = delete;

  static std::unique_ptr<BtfTypes> open(const std::string& path, TypeUniverse& universe,
                                        std::string* error);

  // The id of the type named `name` of BTF kind `btf_kind` (BTF_KIND_STRUCT...), 0 if none.
  uint32_t find(const std::string& name, unsigned btf_kind) const;
  // Whether the kernel has a typedef named `name` (all of them are indexed on the first call).
  bool has_typedef(std::string_view name) const;
  // Every type of BTF kind `btf_kind` whose name starts with `prefix`: (name, id), in id order.
  std::vector<std::pair<std::string_view, uint32_t>> find_prefixed(std::string_view prefix, unsigned btf_kind) const;
  // The parameter types of the function prototype that `id` names, through typedefs and
  // pointers (a raw tracepoint's btf_trace_<name>); empty if it names none.
  std::vector<uint32_t> prototype_params(uint32_t id) const;
  // The value of enumerator `member` of the kernel's enum `enum_name`, if it has one.
  std::optional<int64_t> enumerator(const std::string& enum_name, const std::string& member) const;
  // The D type for BTF type `id` (0 is void).
  const Type* convert(uint32_t id) const;
  // Fills a kernel struct's members (called through Type::members()).
  void load_members(const Type& record) const;

  struct Stats {
    uint32_t types_in_file = 0;     // every type vmlinux BTF describes
    uint32_t types_converted = 0;   // BTF types turned into D types
    uint32_t records_expanded = 0;  // structs/unions whose members were converted
    uint32_t types_indexed = 0;     // how far the type section has been walked
    size_t file_bytes = 0;
  };
  Stats stats() const;  // walks the rest of the type section to count it

 private:
  BtfTypes(TypeUniverse& universe) : universe_(universe) {}
  bool load(const std::string& path, std::string* error);
  bool check_header(std::string* error);
  bool index_through(uint32_t id) const;  // walks the type section up to type `id`
  const ::btf_type* type_at(uint32_t id) const;
  const char* name_at(uint32_t offset) const;
  uint32_t find_name_offset(const std::string& name) const;

  TypeUniverse& universe_;
  std::vector<char> copy_;  // the file's bytes when it could not be mapped
  const char* data_ = nullptr;
  size_t size_ = 0;
  void* mapping_ = nullptr;
  const char* types_ = nullptr;
  uint32_t types_size_ = 0;
  const char* strings_ = nullptr;
  uint32_t strings_size_ = 0;
  // offsets_[id] = byte offset of type `id` in the type section, for the types walked so far.
  mutable std::vector<uint32_t> offsets_;
  mutable uint32_t walked_ = 0;  // byte offset where the walk continues
  mutable std::unordered_map<uint32_t, const Type*> converted_;
  mutable std::optional<std::unordered_set<std::string_view>> typedef_names_;
  mutable uint32_t records_expanded_ = 0;
};

}  // namespace dsched::lang
