#include "btf_types.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <linux/btf.h>
#include <unistd.h>

#include <cstring>

#include "types.h"

namespace dsched::lang {
namespace {

unsigned kind_of(const btf_type* t) { return BTF_INFO_KIND(t->info); }
unsigned vlen_of(const btf_type* t) { return BTF_INFO_VLEN(t->info); }
bool kflag_of(const btf_type* t) { return BTF_INFO_KFLAG(t->info); }

// Bytes that follow the common btf_type header for each kind; -1 for kinds we do not know.
long trailing_bytes(const btf_type* t) {
  switch (kind_of(t)) {
    case BTF_KIND_INT: return 4;
    case BTF_KIND_PTR: case BTF_KIND_FWD: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE:
    case BTF_KIND_CONST: case BTF_KIND_RESTRICT: case BTF_KIND_FUNC: case BTF_KIND_FLOAT:
    case BTF_KIND_TYPE_TAG:
      return 0;
    case BTF_KIND_ARRAY: return sizeof(btf_array);
    case BTF_KIND_STRUCT: case BTF_KIND_UNION: return long(vlen_of(t)) * sizeof(btf_member);
    case BTF_KIND_ENUM: return long(vlen_of(t)) * sizeof(btf_enum);
    case BTF_KIND_FUNC_PROTO: return long(vlen_of(t)) * sizeof(btf_param);
    case BTF_KIND_VAR: return sizeof(btf_var);
    case BTF_KIND_DATASEC: return long(vlen_of(t)) * sizeof(btf_var_secinfo);
    case BTF_KIND_DECL_TAG: return sizeof(btf_decl_tag);
    case BTF_KIND_ENUM64: return long(vlen_of(t)) * sizeof(btf_enum64);
    default: return -1;
  }
}

}  // namespace

std::unique_ptr<BtfTypes> BtfTypes::open(const std::string& path, TypeUniverse& universe,
                                         std::string* error) {
  std::unique_ptr<BtfTypes> btf(new BtfTypes(universe));
  if (!btf->load(path, error)) return nullptr;
  if (!btf->check_header(error)) {
    *error = path + ": " + *error;
    return nullptr;
  }
  return btf;
}

BtfTypes::~BtfTypes() {
  if (mapping_) munmap(mapping_, size_);
}

bool BtfTypes::load(const std::string& path, std::string* error) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = "cannot open " + path + ": " + std::strerror(errno);
    return false;
  }
  struct stat st;
  if (fstat(fd, &st) == 0 && st.st_size > 0) {
    // Recent kernels let vmlinux BTF be mapped: no copy, and only touched pages are read.
    void* p = mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (p != MAP_FAILED) {
      mapping_ = p;
      data_ = static_cast<const char*>(p);
      size_ = size_t(st.st_size);
      ::close(fd);
      return true;
    }
  }
  for (;;) {
    size_t used = copy_.size();
    copy_.resize(used + (1 << 20));
    ssize_t n = ::read(fd, copy_.data() + used, 1 << 20);
    if (n < 0 && errno == EINTR) {
      copy_.resize(used);
      continue;
    }
    if (n < 0) {
      *error = "cannot read " + path + ": " + std::strerror(errno);
      ::close(fd);
      return false;
    }
    copy_.resize(used + size_t(n));
    if (n == 0) break;
  }
  ::close(fd);
  data_ = copy_.data();
  size_ = copy_.size();
  return true;
}

bool BtfTypes::check_header(std::string* error) {
  if (size_ < sizeof(btf_header)) {
    *error = "file too small for a BTF header";
    return false;
  }
  btf_header header;
  std::memcpy(&header, data_, sizeof header);
  if (header.magic != BTF_MAGIC) {
    *error = "not BTF (bad magic)";
    return false;
  }
  uint64_t base = header.hdr_len;
  if (base + uint64_t(header.type_off) + header.type_len > size_ ||
      base + uint64_t(header.str_off) + header.str_len > size_ || header.str_len == 0) {
    *error = "BTF sections exceed the file";
    return false;
  }
  types_ = data_ + base + header.type_off;
  types_size_ = header.type_len;
  strings_ = data_ + base + header.str_off;
  strings_size_ = header.str_len;
  if (strings_[strings_size_ - 1] != '\0') {
    *error = "BTF string section is not terminated";
    return false;
  }
  offsets_.reserve(types_size_ / 32);  // about the average entry size
  offsets_.push_back(0);  // id 0 is void and has no entry
  return true;
}

bool BtfTypes::index_through(uint32_t id) const {
  // A malformed entry ends the walk: the types after it are treated as absent.
  while (offsets_.size() <= id && walked_ < types_size_) {
    if (types_size_ - walked_ < sizeof(btf_type)) {
      walked_ = types_size_;
      break;
    }
    auto* t = reinterpret_cast<const btf_type*>(types_ + walked_);
    long extra = trailing_bytes(t);
    if (extra < 0 || types_size_ - walked_ - sizeof(btf_type) < uint64_t(extra)) {
      walked_ = types_size_;
      break;
    }
    offsets_.push_back(walked_);
    walked_ += uint32_t(sizeof(btf_type) + extra);
  }
  return id < offsets_.size();
}

const btf_type* BtfTypes::type_at(uint32_t id) const {
  if (id == 0 || !index_through(id)) return nullptr;
  return reinterpret_cast<const btf_type*>(types_ + offsets_[id]);
}

const char* BtfTypes::name_at(uint32_t offset) const {
  return offset < strings_size_ ? strings_ + offset : "";
}

uint32_t BtfTypes::find_name_offset(const std::string& name) const {
  // Strings are NUL-separated and deduplicated: "\0name\0" finds the one entry, if any.
  std::string needle = '\0' + name + '\0';
  const char* hit = static_cast<const char*>(
      memmem(strings_, strings_size_, needle.data(), needle.size()));
  return hit ? uint32_t(hit - strings_ + 1) : 0;
}

uint32_t BtfTypes::find(const std::string& name, unsigned btf_kind) const {
  uint32_t name_offset = find_name_offset(name);
  if (name_offset == 0) return 0;
  // The types indexed so far first, then the walk goes on until the name turns up.
  for (uint32_t id = 1; id < offsets_.size(); ++id) {
    auto* t = reinterpret_cast<const btf_type*>(types_ + offsets_[id]);
    if (t->name_off == name_offset && kind_of(t) == btf_kind) return id;
  }
  for (uint32_t id = uint32_t(offsets_.size());; ++id) {
    const btf_type* t = type_at(id);
    if (!t) return 0;
    if (t->name_off == name_offset && kind_of(t) == btf_kind) return id;
  }
}

bool BtfTypes::has_typedef(std::string_view name) const {
  if (!typedef_names_) {
    typedef_names_.emplace();
    for (uint32_t id = 1; const btf_type* t = type_at(id); ++id)
      if (kind_of(t) == BTF_KIND_TYPEDEF) typedef_names_->insert(name_at(t->name_off));
  }
  return typedef_names_->contains(name);
}

std::optional<int64_t> BtfTypes::enumerator(const std::string& enum_name, const std::string& member) const {
  if (uint32_t id = find(enum_name, BTF_KIND_ENUM)) {
    const btf_type* t = type_at(id);
    auto* values = reinterpret_cast<const btf_enum*>(t + 1);
    for (unsigned i = 0; i < vlen_of(t); ++i)
      if (member == name_at(values[i].name_off))
        return kflag_of(t) ? int64_t(values[i].val) : int64_t(uint32_t(values[i].val));
  }
  if (uint32_t id = find(enum_name, BTF_KIND_ENUM64)) {
    const btf_type* t = type_at(id);
    auto* values = reinterpret_cast<const btf_enum64*>(t + 1);
    for (unsigned i = 0; i < vlen_of(t); ++i)
      if (member == name_at(values[i].name_off))
        return int64_t((uint64_t(values[i].val_hi32) << 32) | values[i].val_lo32);
  }
  return std::nullopt;
}

std::vector<std::pair<std::string_view, uint32_t>> BtfTypes::find_prefixed(std::string_view prefix,
                                                                           unsigned btf_kind) const {
  std::vector<std::pair<std::string_view, uint32_t>> found;
  for (uint32_t id = 1;; ++id) {
    const btf_type* t = type_at(id);
    if (!t) return found;
    if (kind_of(t) != btf_kind) continue;
    std::string_view name = name_at(t->name_off);
    if (name.starts_with(prefix)) found.emplace_back(name, id);
  }
}

std::vector<uint32_t> BtfTypes::prototype_params(uint32_t id) const {
  const btf_type* t = type_at(id);
  while (t && (kind_of(t) == BTF_KIND_TYPEDEF || kind_of(t) == BTF_KIND_PTR)) t = type_at(t->type);
  std::vector<uint32_t> params;
  if (!t || kind_of(t) != BTF_KIND_FUNC_PROTO) return params;
  auto* param = reinterpret_cast<const btf_param*>(t + 1);
  for (unsigned i = 0; i < vlen_of(t); ++i) params.push_back(param[i].type);
  return params;
}

const Type* BtfTypes::convert(uint32_t id) const {
  if (id == 0) return universe_.void_type();
  if (auto it = converted_.find(id); it != converted_.end()) return it->second;
  const btf_type* t = type_at(id);
  if (!t) return universe_.void_type();
  std::string name = name_at(t->name_off);
  const Type* result = nullptr;
  switch (kind_of(t)) {
    case BTF_KIND_INT: {
      uint32_t encoding = *reinterpret_cast<const uint32_t*>(t + 1);
      bool is_signed = BTF_INT_ENCODING(encoding) & BTF_INT_SIGNED;
      result = universe_.named_integer(name, t->size, is_signed);
      break;
    }
    case BTF_KIND_PTR:
      result = universe_.pointer_to(convert(t->type));
      break;
    case BTF_KIND_ARRAY: {
      auto* array = reinterpret_cast<const btf_array*>(t + 1);
      result = universe_.array_of(convert(array->type), array->nelems);
      break;
    }
    case BTF_KIND_STRUCT:
    case BTF_KIND_UNION:
    case BTF_KIND_FWD: {
      bool is_union = kind_of(t) == BTF_KIND_UNION || (kind_of(t) == BTF_KIND_FWD && kflag_of(t));
      Type prototype;
      prototype.kind = is_union ? TypeKind::Union : TypeKind::Struct;
      prototype.name = name;
      prototype.btf_id = id;
      prototype.complete = kind_of(t) != BTF_KIND_FWD;
      prototype.size = prototype.complete ? t->size : 0;
      Type* record = universe_.make(std::move(prototype));
      record->members_loaded_ = !record->complete;
      record->btf_ = this;
      result = record;
      break;
    }
    case BTF_KIND_ENUM: {
      std::vector<std::pair<std::string, int64_t>> names;
      auto* values = reinterpret_cast<const btf_enum*>(t + 1);
      for (unsigned i = 0; i < vlen_of(t); ++i)
        names.emplace_back(name_at(values[i].name_off),
                           kflag_of(t) ? int64_t(values[i].val) : int64_t(uint32_t(values[i].val)));
      result = universe_.enum_type(name, t->size, kflag_of(t), std::move(names));
      break;
    }
    case BTF_KIND_ENUM64: {
      std::vector<std::pair<std::string, int64_t>> names;
      auto* values = reinterpret_cast<const btf_enum64*>(t + 1);
      for (unsigned i = 0; i < vlen_of(t); ++i)
        names.emplace_back(name_at(values[i].name_off),
                           int64_t((uint64_t(values[i].val_hi32) << 32) | values[i].val_lo32));
      result = universe_.enum_type(name, t->size, kflag_of(t), std::move(names));
      break;
    }
    case BTF_KIND_TYPEDEF: {
      const Type* target = convert(t->type);
      result = target->is_integer() ? universe_.named_integer(name, target->size, target->is_signed)
                                    : target;
      break;
    }
    case BTF_KIND_CONST:
    case BTF_KIND_VOLATILE:
    case BTF_KIND_RESTRICT:
    case BTF_KIND_TYPE_TAG:
      result = convert(t->type);
      break;
    case BTF_KIND_FUNC:
    case BTF_KIND_FUNC_PROTO:
      result = universe_.function_type();
      break;
    case BTF_KIND_FLOAT:
      result = universe_.float_type(name, t->size);
      break;
    default:
      result = universe_.void_type();
  }
  converted_.emplace(id, result);
  return result;
}

void BtfTypes::load_members(const Type& record) const {
  const btf_type* t = type_at(record.btf_id);
  std::vector<Member> members;
  auto* m = reinterpret_cast<const btf_member*>(t + 1);
  for (unsigned i = 0; i < vlen_of(t); ++i, ++m) {
    Member member;
    member.name = name_at(m->name_off);
    member.btf_type = m->type;
    if (kflag_of(t)) {
      member.offset_bits = BTF_MEMBER_BIT_OFFSET(m->offset);
      member.bitfield_bits = BTF_MEMBER_BITFIELD_SIZE(m->offset);
    } else {
      member.offset_bits = m->offset;
    }
    members.push_back(std::move(member));
  }
  record.members_ = std::move(members);
  ++records_expanded_;
}

BtfTypes::Stats BtfTypes::stats() const {
  Stats stats;
  stats.types_indexed = uint32_t(offsets_.size() - 1);
  index_through(UINT32_MAX - 1);
  stats.types_in_file = uint32_t(offsets_.size() - 1);
  stats.types_converted = uint32_t(converted_.size());
  stats.records_expanded = records_expanded_;
  stats.file_bytes = size_;
  return stats;
}

}  // namespace dsched::lang
