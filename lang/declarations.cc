// Sema for everything between clauses: pragmas, declarations, typedefs, structs, enums, inlines
// and translators; and turning written types into Types.
#include <strings.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <sstream>

#include <bpf/btf.h>

#include "lang/btf_types.h"
#include "lang/builtins/builtin.h"
#include "lang/diagnostics.h"
#include "lang/kernel_symbols.h"
#include "lang/sema.h"
#include "lang/typedefs.h"
#include "stdlib.h"

namespace dsched::lang {
namespace {

// C's integer types by the names TypeUniverse::integer gives them ("int", "unsigned long long").
const Type* canonical_integer(TypeUniverse& types, const std::string& name) {
  for (uint64_t size : {1, 2, 4, 8})
    for (bool is_signed : {true, false})
      if (const Type* t = types.integer(size, is_signed); t->name == name) return t;
  return nullptr;
}

uint64_t alignment_of(const Type* type) {
  switch (type->kind) {
    case TypeKind::Integer:
    case TypeKind::Pointer:
      return std::max<uint64_t>(1, std::min<uint64_t>(type->size, 8));
    case TypeKind::Float:
      return std::max<uint64_t>(1, std::min<uint64_t>(type->size, 16));  // long double: 16
    case TypeKind::Array: return alignment_of(type->target);
    case TypeKind::Struct: case TypeKind::Union: {
      uint64_t align = 1;
      for (const Member& m : type->members()) align = std::max(align, alignment_of(m.type));
      return align;
    }
    default: return 1;
  }
}

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// What #error says: the words and strings after "error" (a string without its quotes; numbers
// dropped), each followed by a space, as DTrace writes them.
std::string error_text(const std::string& directive) {
  std::string text;
  size_t i = directive.find("error") + 5;
  while (i < directive.size()) {
    if (std::isspace(static_cast<unsigned char>(directive[i]))) {
      ++i;
      continue;
    }
    size_t end;
    std::string token;
    if (directive[i] == '"') {
      end = directive.find('"', i + 1);
      if (end == std::string::npos) end = directive.size();
      token = directive.substr(i + 1, end - i - 1);
      ++end;
    } else {
      end = std::min(directive.find_first_of(" \t\"", i), directive.size());
      token = directive.substr(i, end - i);
      if (std::isdigit(static_cast<unsigned char>(token[0]))) token.clear();
    }
    if (!token.empty()) text += printable(token) + " ";
    i = end;
  }
  return text;
}

}  // namespace

void Sema::declare_builtin_types() {
  for (const BuiltinTypedef& t : builtin_typedefs())
    typedefs_[t.name] = types_.named_integer(t.name, t.size, t.is_signed);
  typedefs_["caddr_t"] = types_.pointer_to(types_.integer(1, true));
}

void Sema::pragma(const PragmaSyntax& pragma) {
  std::vector<std::string> w = words(pragma.text);
  // error and ident are control directives: after #, #pragma or #pragma D alike.
  size_t at = !w.empty() && w[0] == "D" ? 1 : 0;
  if (at < w.size() && w[at] == "error") fail(pragma.loc, ErrTag::D_PRAGERR, "#error: " + error_text(pragma.text));
  if (at < w.size() && w[at] == "ident") return;
  if (w.empty() || w[0] != "D") return;  // other pragmas are for other compilers
  if (w.size() < 2) fail(pragma.loc, ErrTag::D_PRAGMA_MALFORM, "#pragma D needs a directive");
  if (w[1] == "option") {
    std::string setting;
    for (size_t i = 2; i < w.size(); ++i) setting += w[i];
    if (setting.empty()) fail(pragma.loc, ErrTag::D_PRAGMA_MALFORM, "#pragma D option needs an option name");
    // One setting: name or name=value (spaces around the = allowed); a second one is malformed.
    const bool spaced_assignment =
        w.size() > 3 && std::count(setting.begin(), setting.end(), '=') == 1 &&
        (w.size() == 4 ? w[2].ends_with('=') || w[3].starts_with('=') : w.size() == 5 && w[3] == "=");
    if (w.size() > 3 && !spaced_assignment)
      fail(pragma.loc, ErrTag::D_PRAGMA_MALFORM,
           "#pragma D option takes one option, not " + std::to_string(w.size() - 2));
    if (setting.front() == '"')
      fail(pragma.loc, ErrTag::D_PRAGMA_MALFORM, "#pragma D option takes an option name, not a string");
    size_t eq = setting.find('=');
    std::string name = setting.substr(0, eq);
    std::optional<std::string> value;
    if (eq != std::string::npos) value = setting.substr(eq + 1);
    abi::OptionValue parsed;
    std::string error;
    if (!abi::parse_option(name, value, &parsed, &error)) fail(pragma.loc, ErrTag::D_PRAGMA_OPTSET, error);
    // The preprocessor has run by the time a pragma is read: its settings come from -X or -x.
    if (name == "stdc") fail(pragma.loc, ErrTag::D_PRAGMA_OPTSET, "option stdc can only be set with -X or -x: the preprocessor has already run");
    // How errors print is decided before the program is read.
    if (name == "errtags") fail(pragma.loc, ErrTag::D_PRAGMA_OPTSET, "option errtags can only be set with -x");
    program_.options.set(name, parsed);
    return;
  }
  if (w[1] == "depends_on") return depends_on(pragma, w);
  if (w[1] == "attributes" || w[1] == "binding") return identifier_pragma(pragma, w);
  fail(pragma.loc, ErrTag::D_PRAGMA_INVAL, "invalid D pragma: " + printable(w[1]));
}

// #pragma D depends_on provider|module|library NAME: the program cannot compile without it.
void Sema::depends_on(const PragmaSyntax& pragma, const std::vector<std::string>& w) {
  if (w.size() != 4) fail(pragma.loc, ErrTag::D_PRAGMA_MALFORM, "#pragma D depends_on needs a kind (provider, module, library) and a name");
  const std::string& kind = w[2];
  const std::string& name = w[3];
  bool met = false;
  if (kind == "provider") {
    for (const Provider* provider : all_providers()) met |= provider->name() == name;
  } else if (kind == "module") {
    met = name == "vmlinux" || access(("/sys/module/" + name).c_str(), F_OK) == 0;
  } else if (kind == "library") {
    for (const stdlib::Source& source : stdlib::sources()) met |= source.name == name;
  } else {
    fail(pragma.loc, ErrTag::D_PRAGMA_INVAL, "#pragma D depends_on: unknown kind " + printable(kind) + " (provider, module or library)");
  }
  if (!met) fail(pragma.loc, ErrTag::D_PRAGMA_DEPEND, "the program depends on " + kind + " " + printable(name) + ", which is not available");
}

namespace {

// DTrace's stability attributes, name/data/class: each part may be left off from the right.
bool valid_attributes(const std::string& text) {
  static const std::vector<std::string> stabilities = {"Internal", "Private",  "Obsolete", "External",
                                                       "Unstable", "Evolving", "Stable",   "Standard"};
  static const std::vector<std::string> classes = {"Unknown", "CPU", "Platform", "Group", "ISA", "Common"};
  std::vector<std::string> parts;
  for (size_t begin = 0; begin <= text.size();) {
    size_t end = std::min(text.find('/', begin), text.size());
    parts.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  auto named = [](const std::vector<std::string>& names, const std::string& part) {
    return std::any_of(names.begin(), names.end(), [&](const std::string& n) { return strcasecmp(n.c_str(), part.c_str()) == 0; });
  };
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].empty()) return i + 1 == parts.size();  // "Stable/" stops where the text does
    if (i > 2 || !named(i < 2 ? stabilities : classes, parts[i])) return false;
  }
  return true;
}

// A D version, major[.minor[.micro]], within DTrace's limits (255.4095.4095).
bool valid_version(const std::string& text) {
  uint64_t part[3] = {0, 0, 0};
  size_t i = 0;
  for (char c : text) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      part[i] = std::min<uint64_t>(part[i] * 10 + uint64_t(c - '0'), 1 << 16);
    } else if (c != '.' || ++i > 2) {
      return false;
    }
  }
  return part[0] <= 0xff && part[1] <= 0xfff && part[2] <= 0xfff;
}

bool quoted(const std::string& word) { return !word.empty() && word.front() == '"'; }

// A pragma naming a built-in or a D library identifier.
[[noreturn]] void fail_outside_scope(SourceRange loc, const std::string& directive) {
  fail(loc, ErrTag::D_PRAGMA_SCOPE, "#pragma " + directive + " cannot modify entity defined outside program scope");
}

}  // namespace

// #pragma D attributes ATTR NAME | ATTR provider PROV PART, and #pragma D binding "VERSION" NAME:
// stability and version bindings are only documentation here, but a pragma must be well formed
// and name something of the script's own, as DTrace requires.
void Sema::identifier_pragma(const PragmaSyntax& pragma, const std::vector<std::string>& w) {
  const std::string& directive = w[1];
  const bool attributes = directive == "attributes";
  if (w.size() < 4 || (attributes ? quoted(w[2]) : !quoted(w[2])) || quoted(w[3]))
    fail(pragma.loc, ErrTag::D_PRAGMA_MALFORM,
         "malformed #pragma " + directive + (attributes ? " <attributes> <ident>" : " \"version\" <ident>"));
  if (attributes ? !valid_attributes(w[2]) : !valid_version(w[2].substr(1, w[2].size() - 2)))
    fail(pragma.loc, ErrTag::D_PRAGMA_INVAL,
         std::string(attributes ? "invalid attributes" : "invalid version string") + " specified by #pragma " + directive);
  std::string name = w[3];
  if (attributes && name == "provider") {
    if (w.size() < 6)
      fail(pragma.loc, ErrTag::D_PRAGMA_MALFORM, "malformed #pragma attributes <attributes> provider <name> <part>");
    name = w[4];
    const std::vector<std::string> parts = {"provider", "module", "function", "name", "args"};
    for (const Provider* provider : all_providers()) {
      if (provider->name() != name) continue;
      if (std::find(parts.begin(), parts.end(), w[5]) == parts.end())
        fail(pragma.loc, ErrTag::D_PRAGMA_INVAL,
             "invalid component \"" + printable(w[5]) + "\" in attribute #pragma for provider " + printable(name));
      return;
    }
  }
  if (find_builtin_variable(name) || find_function(name) || find_aggregating_function(name))
    fail_outside_scope(pragma.loc, directive);
  identifier_pragmas_.push_back({directive, name, pragma.loc});
}

// A pragma waits for its identifier, which the script may define after it ("translator": the
// script's next translator); the D library's identifiers are outside the script's scope.
void Sema::check_pragmas_applied() const {
  for (const IdentifierPragma& p : identifier_pragmas_) {
    if (script_identifiers_.count(p.name) || variable_index_[int(VarScope::Global)].count(p.name)) continue;
    if (inlines_.count(p.name)) fail_outside_scope(p.loc, p.directive);
    fail(p.loc, ErrTag::D_PRAGMA_UNUSED, "unused #pragma " + p.directive);
  }
}

const Type* Sema::resolve_spec(const DeclSpec& spec) {
  bool has_modifiers = spec.signed_count || spec.unsigned_count || spec.short_count || spec.long_count;
  if (spec.signed_count && spec.unsigned_count)
    fail(spec.loc, ErrTag::D_DECL_COMBO, "both signed and unsigned in declaration specifiers");
  if (spec.short_count > 1 || spec.long_count > 2 || (spec.short_count && spec.long_count))
    fail(spec.loc, ErrTag::D_DECL_COMBO, "invalid combination of type specifiers");
  switch (spec.base) {
    case DeclSpec::Base::None:
    case DeclSpec::Base::Int: {
      if (spec.base == DeclSpec::Base::None && !has_modifiers)
        fail(spec.loc, ErrTag::D_DECL_IDENT, "declaration has no type");
      uint64_t size = spec.short_count ? 2 : spec.long_count ? 8 : 4;
      return types_.integer(size, !spec.unsigned_count);
    }
    case DeclSpec::Base::Char:
      if (spec.short_count || spec.long_count)
        fail(spec.loc, ErrTag::D_DECL_CHARATTR, "invalid type declaration: short and long may not be used with char");
      return types_.integer(1, !spec.unsigned_count);
    default:
      break;
  }
  if (spec.base == DeclSpec::Base::Void && has_modifiers)
    fail(spec.loc, ErrTag::D_DECL_VOIDATTR, "invalid type declaration: attributes may not be used with void");
  const bool floating = spec.base == DeclSpec::Base::Float || spec.base == DeclSpec::Base::Double;
  if (spec.signed_count || spec.unsigned_count)
    fail(spec.loc, ErrTag::D_DECL_SIGNINT,
         "invalid type declaration: signed and unsigned may only be used with integer types");
  if (spec.long_count && !floating)
    fail(spec.loc, ErrTag::D_DECL_LONGINT,
         "invalid type declaration: long may only be used with integer or floating-point types");
  const bool long_double = spec.base == DeclSpec::Base::Double && spec.long_count == 1 && !spec.short_count;
  if (has_modifiers && !long_double) fail(spec.loc, ErrTag::D_DECL_COMBO, "invalid combination of type specifiers");
  switch (spec.base) {
    case DeclSpec::Base::Void: return types_.void_type();
    // D declares floating-point objects (a copied-in struct may hold them) but computes with none.
    case DeclSpec::Base::Float:
      return types_.float_type("float", 4);
    case DeclSpec::Base::Double:
      return long_double ? types_.float_type("long double", 16) : types_.float_type("double", 8);
    case DeclSpec::Base::String: return types_.string_type();
    case DeclSpec::Base::Named: {
      if (auto it = typedefs_.find(spec.name); it != typedefs_.end()) return it->second;
      // The lexer read the name as a kernel typedef's.
      if (const BtfTypes* btf = types_.btf(nullptr))
        if (uint32_t id = btf->find(spec.name, BTF_KIND_TYPEDEF)) return btf->convert(id);
      fail(spec.loc, ErrTag::D_TYPE_ERR, "unknown type name " + spec.name);
    }
    case DeclSpec::Base::Record: return record_type(*spec.record);
    case DeclSpec::Base::Enum: return enum_type(*spec.enumeration);
    default: fail(spec.loc, ErrTag::D_TYPE_ERR, "invalid type");
  }
}

const Type* Sema::record_type(const RecordSpec& spec) {
  auto& table = spec.kind == TypeKind::Union ? unions_ : structs_;
  const char* keyword = spec.kind == TypeKind::Union ? "union" : "struct";
  if (!spec.has_body) {
    if (auto it = table.find(spec.tag); it != table.end()) return it->second;
    std::string error;
    const Type* kernel = types_.kernel_record(spec.kind, spec.tag, &error);
    if (!error.empty()) fail(spec.loc, ErrTag::D_TYPE_ERR, std::string("cannot resolve ") + keyword + " " + spec.tag + ": " + error);
    if (kernel) return kernel;
    // As in C, naming an unknown tag declares it: pointers to it are fine, its members and size
    // wait for a definition.
    Type* forward = types_.new_record(spec.kind, spec.tag);
    table[spec.tag] = forward;
    return forward;
  }
  Type* record = nullptr;
  if (!spec.tag.empty()) {
    auto it = table.find(spec.tag);
    if (it != table.end() && it->second->complete)
      fail(spec.loc, ErrTag::D_DECL_TYPERED, std::string(keyword) + " " + spec.tag + " is already defined");
    if (it != table.end()) record = it->second;  // completes a forward declaration
  }
  if (!record) record = types_.new_record(spec.kind, spec.tag);
  if (!spec.tag.empty()) table[spec.tag] = record;
  std::vector<Member> members;
  uint64_t bit = 0, size = 0, align = 1;  // bit: where the next member may start
  auto round_up = [](uint64_t n, uint64_t to) { return (n + to - 1) / to * to; };
  for (const FieldDecl& field : spec.fields) {
    const Declarator& d = field.declarator;
    const Type* type = resolve_declarator(resolve_spec(field.spec), d, nullptr);
    if (type->is_void() || (type->is_record() && !type->complete))
      fail(d.loc, ErrTag::D_DECL_INCOMPLETE, "member " + d.name + " has incomplete type");
    for (const Member& m : members)
      if (!d.name.empty() && m.name == d.name) fail(d.loc, ErrTag::D_DECL_MNAME, "duplicate member " + m.name);
    uint64_t a = alignment_of(type);
    bool is_union = spec.kind == TypeKind::Union;
    if (field.bit_width) {
      // C's layout: a bit-field shares the storage unit of its type with its neighbours unless it
      // would cross the unit's end; width 0 closes the unit.
      if (!type->is_integer()) fail(d.loc, ErrTag::D_DECL_BFTYPE, "bit-field " + d.name + " must have an integer type");
      ExprPtr width_expr = clone(*field.bit_width);
      int64_t width = constant_integer(width_expr, "a bit-field width", ErrTag::D_DECL_BFCONST);
      uint64_t unit = type->size * 8;
      if (width < 0 || uint64_t(width) > unit || (width == 0 && !d.name.empty()))
        fail(d.loc, ErrTag::D_DECL_BFSIZE, "bit-field width " + std::to_string(width) + " is invalid for " + type_name(type));
      if (width == 0) {
        bit = round_up(bit, unit);
        continue;
      }
      uint64_t at = is_union ? 0 : bit;
      if (at / unit != (at + uint64_t(width) - 1) / unit) at = round_up(at, unit);
      if (!d.name.empty()) members.push_back({d.name, type, at, uint32_t(width)});
      align = std::max(align, a);
      bit = at + uint64_t(width);
      size = std::max(size, round_up(bit, 8) / 8);
      continue;
    }
    uint64_t offset = is_union ? 0 : round_up(round_up(bit, 8) / 8, a);
    align = std::max(align, a);
    members.push_back({d.name, type, offset * 8, 0});
    if (!is_union) bit = (offset + type->size) * 8;
    size = std::max(size, offset + type->size);
  }
  size = round_up(size, align);
  TypeUniverse::set_members(record, std::move(members), size);
  return record;
}

const Type* Sema::enum_type(const EnumSpec& spec) {
  if (!spec.has_body) {
    if (auto it = enums_.find(spec.tag); it != enums_.end()) return it->second;
    std::string error;
    if (const Type* kernel = types_.kernel_enum(spec.tag, &error)) return kernel;
    fail(spec.loc, ErrTag::D_TYPE_ERR, "enum " + spec.tag + " is not defined");
  }
  if (!spec.tag.empty() && enums_.count(spec.tag))
    fail(spec.loc, ErrTag::D_DECL_TYPERED, "enum " + spec.tag + " is already defined");
  std::vector<std::pair<std::string, int64_t>> values;
  int64_t next = 0;
  for (const Enumerator& e : spec.enumerators) {
    if (e.value) {
      ExprPtr value = clone(*e.value);
      next = constant_integer(value, "an enumerator value", ErrTag::D_DECL_ENCONST);
    }
    if (next > INT32_MAX || next < INT32_MIN)
      fail(e.loc, ErrTag::D_DECL_ENOFLOW,
           "enumerator " + e.name + " overflows INT_MAX (" + std::to_string(INT32_MAX) + ")");
    if (enum_constants_.count(e.name) || inlines_.count(e.name) || is_reserved_variable_name(e.name) ||
        find_variable(VarScope::Global, e.name))
      fail(e.loc, ErrTag::D_DECL_IDRED, "identifier " + e.name + " is already defined");
    enum_constants_[e.name] = {next, types_.integer(4, true)};  // later enumerators may use it
    values.emplace_back(e.name, next);
    ++next;
  }
  // A tagged enum is a type of its own, whose values print() names, as DTrace's enumerators carry
  // their enum's type; an anonymous one is an int.
  const Type* type = spec.tag.empty() ? types_.integer(4, true) : types_.enum_type(spec.tag, 4, true, values);
  for (const auto& [name, value] : values) enum_constants_[name] = {value, type};
  if (!spec.tag.empty()) enums_[spec.tag] = type;
  return type;
}

const Type* Sema::resolve_declarator(const Type* base, const Declarator& d,
                                     std::vector<const Type*>* key_types) {
  // Limits keep types shallow: type names are printed and compared recursively.
  if (d.pointer_depth > 16) fail(d.loc, ErrTag::D_UNKNOWN, "too many levels of pointers (at most 16)");
  if (d.suffixes.size() > 8) fail(d.loc, ErrTag::D_UNKNOWN, "too many array dimensions (at most 8)");
  const Type* type = base;
  for (int i = 0; i < d.pointer_depth; ++i) type = types_.pointer_to(type);
  if (!d.suffixes.empty() && d.suffixes.back().function) {
    // A prototype: its parameter types must exist; D only names the function's type.
    if (d.suffixes.size() != 1) fail(d.suffixes.back().loc, ErrTag::D_DECL_PROTO_TYPE, "invalid function declarator");
    const auto& parameters = d.suffixes.back().parameters;
    for (const TypeNamePtr& p : parameters) {
      const Type* t = resolve_type_name(*p);
      if (t->is_void() && parameters.size() != 1) fail(p->loc, ErrTag::D_DECL_PROTO_VOID, "void must be the only parameter");
    }
    type = types_.function_type();
    return d.inner ? resolve_declarator(type, *d.inner, nullptr) : type;
  }
  for (const ArraySuffix& s : d.suffixes) {
    if (!s.key_types.empty()) {
      if (!key_types || d.suffixes.size() != 1)
        fail(s.loc, ErrTag::D_DECL_DYNOBJ, "associative array keys are only allowed in a variable declaration");
      for (const TypeNamePtr& key : s.key_types) {
        const Type* k = resolve_type_name(*key);
        if (!k->is_scalar() && !k->is_string())
          fail(key->loc, ErrTag::D_KEY_TYPE, "associative array keys must be integers, pointers or strings");
        key_types->push_back(k);
      }
      return type;
    }
  }
  for (auto it = d.suffixes.rbegin(); it != d.suffixes.rend(); ++it) {
    if (!it->size) fail(it->loc, ErrTag::D_DECL_ARRNULL, "array dimension is missing");
    ExprPtr size = clone(*it->size);
    int64_t count = constant_integer(size, "an array dimension", ErrTag::D_DECL_ARRSUB);
    if (count <= 0) fail(it->loc, ErrTag::D_DECL_ARRSUB, "array dimension must be a positive integer constant");
    if (count > (1 << 20)) fail(it->loc, ErrTag::D_DECL_ARRBIG, "array dimension must be at most 1048576");
    if (type->is_void()) fail(it->loc, ErrTag::D_DECL_VOIDOBJ, "an array cannot hold void");
    type = types_.array_of(type, uint64_t(count));
  }
  return d.inner ? resolve_declarator(type, *d.inner, key_types) : type;
}

const Type* Sema::resolve_type_name(const TypeName& name) {
  const Type* type = resolve_declarator(resolve_spec(name.spec), name.declarator, nullptr);
  const Type* base = type;
  while (base->target && (base->is_pointer() || base->is_array())) base = base->target;
  if (base->btf_id) note_attributes(kPrivateUnknown);  // as DTrace rates the kernel's types
  return type;
}

const Type* Sema::resolve_type_text(const std::string& text, SourceRange loc) {
  // Built-in variables and probe arguments name the same few types over and over.
  if (auto known = resolved_texts_.find(text); known != resolved_texts_.end()) return known->second;
  const Type* type = parse_type_text(text, loc);
  resolved_texts_.emplace(text, type);
  return type;
}

const Type* Sema::parse_type_text(const std::string& text, SourceRange loc) {
  std::string base = text;
  int stars = 0;
  while (!base.empty() && (base.back() == '*' || base.back() == ' ')) {
    stars += base.back() == '*';
    base.pop_back();
  }
  const Type* type = nullptr;
  if (base.starts_with("struct ") || base.starts_with("union ")) {
    RecordSpec spec;
    spec.kind = base.starts_with("union ") ? TypeKind::Union : TypeKind::Struct;
    spec.tag = base.substr(base.find(' ') + 1);
    spec.loc = loc;
    type = record_type(spec);
  } else if (const Type* integer = canonical_integer(types_, base)) {
    type = integer;
  } else if (base == "string") {
    type = types_.string_type();
  } else if (base == "void" && stars > 0) {
    type = types_.void_type();
  } else if (auto it = typedefs_.find(base); it != typedefs_.end()) {
    type = it->second;
  } else {
    fail(loc, ErrTag::D_TYPE_ERR, "unknown type " + base);
  }
  for (int i = 0; i < stars; ++i) type = types_.pointer_to(type);
  return type;
}

int64_t Sema::constant_integer(ExprPtr& e, const char* what, ErrTag tag) {
  SourceRange loc = e->loc;
  check_value(e);
  if (e->kind != ExprKind::IntLiteral) fail(loc, tag, std::string(what) + " must be an integer constant");
  return int64_t(e->value);
}

void Sema::declaration(DeclarationSyntax& decl) {
  const Type* base = resolve_spec(decl.spec);
  for (InitDeclarator& init : decl.declarators) {
    const Declarator& d = init.declarator;
    std::vector<const Type*> keys;
    bool variable = decl.spec.storage == Storage::None || decl.spec.storage == Storage::Self ||
                    decl.spec.storage == Storage::This ||
                    decl.spec.storage == Storage::Inline;  // an inline's keys are its parameters
    const Type* type = resolve_declarator(base, d, variable ? &keys : nullptr);
    if (type->kind == TypeKind::Function && decl.spec.storage != Storage::Typedef) {
      // A prototype declares a kernel or D function's type; D cannot call it, so it stops here.
      if (decl.spec.storage == Storage::Self || decl.spec.storage == Storage::This ||
          decl.spec.storage == Storage::Inline)
        fail(d.loc, ErrTag::D_DECL_IDENT, "function " + d.name + " cannot be declared as a variable");
      continue;
    }
    if (d.name.starts_with('`'))
      fail(d.loc, ErrTag::D_DECL_SCOPE, "D scoping operator may not be used in a declaration name");
    const bool global = decl.spec.storage == Storage::None || decl.spec.storage == Storage::Inline ||
                        decl.spec.storage == Storage::Extern;
    if (global && !decl.from_library) script_identifiers_.insert(d.name);
    switch (decl.spec.storage) {
      case Storage::Static:  // a static prototype is an extern one, as in DTrace, and stopped above
        fail(decl.spec.loc, ErrTag::D_DECL_BADCLASS, "the storage class static is not appropriate in D");
      case Storage::Typedef:
        if (type->is_integer()) type = types_.named_integer(d.name, type->size, type->is_signed);
        if (auto it = typedefs_.find(d.name); it != typedefs_.end() && it->second != type &&
            type_name(it->second) != type_name(type))
          fail(d.loc, ErrTag::D_DECL_IDRED, "typedef " + d.name + " is already defined as " + type_name(it->second));
        typedefs_[d.name] = type;
        break;
      case Storage::Inline: {
        if (inlines_.count(d.name) || enum_constants_.count(d.name) || is_reserved_variable_name(d.name) ||
            find_variable(VarScope::Global, d.name))
          fail(d.loc, ErrTag::D_DECL_IDRED, "identifier " + d.name + " is already defined");
        ExprPtr value = std::move(init.init);
        if (!keys.empty()) {
          define_inline_function(d, type, std::move(value));
          break;
        }
        if (value->kind == ExprKind::Xlate && !value->type) {
          // A translated pointer (psinfo_t *): its input may only be valid in a clause, so it is
          // checked where name->member is read.
          const Type* target = resolve_type_name(*value->type_name);
          if (target != type)
            fail(value->loc, ErrTag::D_OP_INCOMPAT, "inline " + d.name + " is declared " + type_name(type) + " but its value is " +
                                 type_name(target));
          if (!target->is_pointer()) fail(value->loc, ErrTag::D_XLATE_SOU, "an inline translation must be a pointer: xlate<" +
                                                          type_name(target) + " *>()");
          inlines_[d.name] = InlineDefinition{type, std::move(value), true, {}};
          break;
        }
        Attributes attributes = kStableCommon;
        {
          NotingAttributes noting(noted_, &attributes);
          check_value(value);
        }
        convert_for_store(value, storable(type, d.loc), value->loc);
        inlines_[d.name] = InlineDefinition{type, std::move(value), false, {}, attributes};
        break;
      }
      case Storage::Extern: {
        // A kernel variable: its name reads the kernel's memory at the symbol's address.
        if (find_variable(VarScope::Global, d.name) || inlines_.count(d.name) || enum_constants_.count(d.name) ||
            is_reserved_variable_name(d.name))
          fail(d.loc, ErrTag::D_DECL_IDRED, "cannot declare " + d.name + ": the name is already defined");
        if (type->is_void() || (type->is_record() && !type->complete))
          fail(d.loc, ErrTag::D_DECL_INCOMPLETE, "extern " + d.name + " has incomplete type " + type_name(type));
        std::string error;
        std::optional<KernelSymbol> symbol = kernel_symbol(d.name, &error);
        if (!symbol) fail(d.loc, ErrTag::D_IDENT_UNDEF, "extern " + d.name + ": " + error);
        externs_[d.name] = kernel_object(symbol->address, type, d.loc);
        break;
      }
      case Storage::Self:
      case Storage::This:
      case Storage::None: {
        VarScope scope = decl.spec.storage == Storage::Self   ? VarScope::ThreadLocal
                         : decl.spec.storage == Storage::This ? VarScope::ClauseLocal
                                                              : VarScope::Global;
        if (is_reserved_variable_name(d.name) || inlines_.count(d.name) || enum_constants_.count(d.name))
          fail(d.loc, ErrTag::D_DECL_IDRED, "cannot declare " + d.name + ": the name is already defined");
        if (find_variable(scope, d.name))
          fail(d.loc, ErrTag::D_DECL_IDRED, "variable " + d.name + " is already declared");
        if (scope == VarScope::ClauseLocal && !keys.empty())
          fail(d.loc, ErrTag::D_DECL_LOCASSC, "associative arrays may not be declared as local variables: " + d.name);
        // A declared char array stays an array of its size (one a value makes is a string); a
        // floating-point variable is bytes D can hold and copy but not compute with.
        add_variable(
            scope, d.name,
            type->is_array() || type->kind == TypeKind::Float ? storable_object(type, d.loc) : storable(type, d.loc),
            std::move(keys), d.loc, true);
        break;
      }
    }
  }
}

// Whether an expression names `name` anywhere in it.
static bool mentions(const Expr& e, const std::string& name) {
  if (e.kind == ExprKind::Ident && e.text == name) return true;
  for (const ExprPtr& operand : e.operands)
    if (operand && mentions(*operand, name)) return true;
  return false;
}

// inline T name[int a, ...] = value: kept as written, and checked at each use with the arguments
// in place of the parameters.
void Sema::define_inline_function(const Declarator& d, const Type* type, ExprPtr value) {
  const Declarator* keyed = &d;
  while (keyed->suffixes.empty() && keyed->inner) keyed = keyed->inner.get();
  const std::vector<TypeNamePtr>& parameters = keyed->suffixes.front().key_types;
  for (const TypeNamePtr& p : parameters)
    if (p->declarator.name.empty())
      fail(p->loc, ErrTag::D_DECL_IDENT, "inline " + d.name + ": each parameter needs a name, as in " + d.name + "[int x]");
  // Each use expands the value in place, so an inline reached again from its own value would
  // never end.
  if (mentions(*value, d.name)) fail(value->loc, ErrTag::D_IDENT_BADREF, "inline " + d.name + " cannot refer to itself");
  for (const auto& [other, definition] : inlines_)
    if (!definition.parameters.empty() && mentions(*definition.value, d.name))
      fail(d.loc, ErrTag::D_IDENT_BADREF, "inline " + d.name + " cannot be defined after inline " + other + ", which refers to it");
  inlines_[d.name] = InlineDefinition{type, std::move(value), false, parameters};
}

void Sema::translator(TranslatorSyntax& syntax) {
  if (!syntax.from_library) script_identifiers_.insert("translator");
  auto t = std::make_unique<Translator>();
  t->output = resolve_type_name(*syntax.output);
  if (!t->output->is_record() || t->output->btf_id)
    fail(syntax.loc, ErrTag::D_XLATE_SOU, "a translator's output must be a struct declared in D");
  t->input_syntax = syntax.input;
  t->input_name = syntax.input_name;
  t->loc = syntax.loc;
  for (const TranslatorMemberSyntax& member : syntax.members) {
    if (!t->output->find_member(member.name))
      fail(member.loc, ErrTag::D_XLATE_MEMB, member.name + " is not a member of " + type_name(t->output));
    if (!t->members.emplace(member.name, &member).second)
      fail(member.loc, ErrTag::D_XLATE_MEMB, "translator member " + member.name + " is defined twice");
  }
  // As in DTrace, one translator per pair of types (inputs are resolved only for such pairs, and
  // not when they name different structs: resolving a kernel struct would read the kernel's BTF).
  auto named_apart = [](const TypeName& a, const TypeName& b) {
    const RecordSpec* x = a.spec.base == DeclSpec::Base::Record ? a.spec.record.get() : nullptr;
    const RecordSpec* y = b.spec.base == DeclSpec::Base::Record ? b.spec.record.get() : nullptr;
    return x && y && !x->tag.empty() && !y->tag.empty() && x->tag != y->tag;
  };
  for (auto& other : translators_)
    if (other->output == t->output && !named_apart(*other->input_syntax, *t->input_syntax) &&
        translator_input(*other) == translator_input(*t))
      fail(syntax.loc, ErrTag::D_XLATE_REDECL, "translator from " + type_name(t->input) + " to " + type_name(t->output) +
                           " has already been declared");
  if (!syntax.from_library) check_translator_members(*t);
  translators_.push_back(std::move(t));
}

}  // namespace dsched::lang
