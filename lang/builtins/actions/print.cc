// print(value): prints a value with its type, as DTrace's print() does (the layout of MDB's
// ::print -tn): the type name, then the value; integers and pointers in hex ("%#x"), an enum's
// value by its enumerator's name, chars quoted,
// char arrays that hold text as a string, other arrays in brackets, and structs and unions member
// by member, one per line, indented by four spaces a level:
//   int 0xa
//   string "hello"
//   struct s {
//       int a = 0x1
//       char [4] name = [ "abc" ]
//       unsigned int flag :3 = 0x5
//       struct inner in = {
//           long x = 0
//       }
//   }
// The outermost closing brace ends without a newline, as in DTrace. The layout is worked out from
// the type when the script is compiled; the value's bytes are recorded whole (a kernel struct is
// read from kernel memory: a bad address is a fault).
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <memory>

#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/records.h"
#include "lang/diagnostics.h"

namespace dsched::lang {
namespace {

// The largest value print() records: a kernel struct is read into the record whole.
constexpr uint64_t kMaxSize = 64 * 1024;

struct Piece {
  enum class Kind { Text, Hex, Char, Bitfield, CharArray, Float, Enum };
  Kind kind = Kind::Text;
  std::string text;       // Text
  uint64_t offset = 0;    // bytes from the start of the value (Bitfield: bits)
  uint64_t size = 0;      // Hex, Float, Enum: bytes; CharArray: elements; Bitfield: bits
  bool outermost = false; // CharArray: the value itself, whose text prints without brackets
  bool is_signed = false; // Enum
  std::vector<std::pair<std::string, int64_t>> names{};  // Enum: its enumerators
};

struct Layout : abi::ActionData {
  std::vector<Piece> pieces;
};

bool is_char(const Type* t) { return t->is_integer() && t->size == 1 && (t->name == "char" || t->name == "signed char"); }

// Type names as C writes them; an anonymous struct or union is "struct " / "union ".
std::string printed_name(const Type* t) {
  if (t->is_record() && t->name.empty()) return t->kind == TypeKind::Struct ? "struct " : "union ";
  if (t->is_string()) return "string";
  return type_name(t);
}

class LayoutBuilder {
 public:
  explicit LayoutBuilder(std::vector<Piece>& out) : out_(out) {}

  // One member (the value itself: no name, depth 0), at `offset_bits` from the value's start.
  // Elements of an array are members of depth 0 nested `nest` levels.
  void member(const std::string& name, const Type* type, uint64_t offset_bits, uint32_t bitfield_bits, int depth,
              int nest) {
    bool element = nest != 0 && depth == 0;
    bool brief = element && !type->is_record();
    if (!brief) {
      if (element) text("\n");
      std::string type_text = printed_name(type);
      text(indent(depth + nest) + type_text);
      if (!name.empty()) {
        if (type_text.back() != '*' && type_text.back() != ' ') text(" ");
        text(name);
        if (bitfield_bits) text(" :" + std::to_string(bitfield_bits));
        text(" =");
      }
      text(" ");
    }
    if (type->is_record()) {
      text("{\n");
      const std::vector<Member>& members = type->members();
      for (const Member& m : members)
        member(m.name, m.type, offset_bits + m.offset_bits, m.bitfield_bits, depth + 1, nest);
      // As in DTrace, an empty struct's brace is never closed.
      if (!members.empty()) text(indent(depth + nest) + "}" + (depth == 0 ? "" : "\n"));
      return;
    }
    value(type, offset_bits, bitfield_bits, depth, nest);
    if (!brief) text("\n");
  }

 private:
  void value(const Type* type, uint64_t offset_bits, uint32_t bitfield_bits, int depth, int nest) {
    uint64_t offset = offset_bits / 8;
    if (bitfield_bits) return piece({Piece::Kind::Bitfield, "", offset_bits, bitfield_bits});
    if (type->is_string()) return piece({Piece::Kind::CharArray, "", offset, type->size, depth + nest == 0});
    if (is_char(type)) return piece({Piece::Kind::Char, "", offset, 1});
    if (!type->enumerators.empty())
      return piece({Piece::Kind::Enum, "", offset, type->size, false, type->is_signed, type->enumerators});
    if (type->is_integer() || type->is_pointer()) return piece({Piece::Kind::Hex, "", offset, type->size});
    if (type->kind == TypeKind::Float) return piece({Piece::Kind::Float, "", offset, type->size});
    if (!type->is_array()) return text("<" + type_name(type) + ">");
    const Type* element = type->target;
    if (is_char(element)) return piece({Piece::Kind::CharArray, "", offset, type->count, depth + nest == 0});
    text("[ ");
    for (uint64_t i = 0; i < type->count; ++i) {
      member("", element, offset_bits + i * element->size * 8, 0, 0, nest + depth + 1);
      if (i + 1 != type->count)
        text(", ");
      else if (element->is_record())
        text("\n");
    }
    text(element->is_record() ? indent(depth + nest) + "]" : " ]");
  }

  static std::string indent(int level) { return std::string(static_cast<size_t>(level) * 4, ' '); }
  void text(const std::string& s) {
    if (!out_.empty() && out_.back().kind == Piece::Kind::Text)
      out_.back().text += s;
    else
      out_.push_back({Piece::Kind::Text, s});
  }
  void piece(Piece p) { out_.push_back(std::move(p)); }

  std::vector<Piece>& out_;
};

// Rendering, in user space, from the recorded bytes.
uint64_t little_endian(std::string_view bytes, uint64_t offset, uint64_t size) {
  uint64_t v = 0;
  for (uint64_t i = 0; i < size && offset + i < bytes.size(); ++i)
    v |= uint64_t(static_cast<unsigned char>(bytes[offset + i])) << (8 * i);
  return v;
}

std::string hex(uint64_t v, uint64_t size) {
  if (size != 1 && size != 2 && size != 4 && size != 8) return "<invalid size " + std::to_string(size) + ">";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%#llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string quoted_char(char c) {
  char buf[32];
  if (c == 0)
    return "'\\0'";
  else if (std::isprint(static_cast<unsigned char>(c)))
    std::snprintf(buf, sizeof buf, "'%c'", c);
  else
    std::snprintf(buf, sizeof buf, "'\\%03o'", static_cast<int>(static_cast<signed char>(c)));
  return buf;
}

// Text (printable characters, then a NUL within the array) prints as a string; anything else as
// the array of its characters.
std::string char_array(std::string_view bytes, uint64_t offset, uint64_t count, bool outermost) {
  std::string_view chars = bytes.substr(std::min<uint64_t>(offset, bytes.size()), count);
  size_t text_end = 0;
  while (text_end < chars.size() && chars[text_end] != 0 && std::isprint(static_cast<unsigned char>(chars[text_end])))
    ++text_end;
  if (text_end < chars.size() && chars[text_end] == 0) {
    std::string s = "\"" + std::string(chars.substr(0, text_end)) + "\"";
    return outermost ? s : "[ " + s + " ]";
  }
  std::string out = "[ ";
  for (size_t i = 0; i < chars.size(); ++i) out += (i ? ", " : "") + quoted_char(chars[i]);
  return out + " ]";
}

std::string render(const Piece& p, std::string_view bytes) {
  switch (p.kind) {
    case Piece::Kind::Text: return p.text;
    case Piece::Kind::Hex: return hex(little_endian(bytes, p.offset, p.size), p.size);
    case Piece::Kind::Char: return quoted_char(static_cast<char>(little_endian(bytes, p.offset, 1)));
    case Piece::Kind::Enum: {
      // The enumerator's name, as DTrace names an enum's value; a value none names, in decimal.
      uint64_t bits = little_endian(bytes, p.offset, p.size);
      int64_t value = p.size >= 8 ? int64_t(bits)
                      : p.is_signed && (bits >> (p.size * 8 - 1)) ? int64_t(bits | (~uint64_t(0) << (p.size * 8)))
                                                                   : int64_t(bits);
      for (const auto& [name, named] : p.names)
        if (named == value) return name;
      return std::to_string(value);
    }
    case Piece::Kind::Bitfield: {
      uint64_t first = p.offset / 8, shift = p.offset % 8;
      uint64_t word = little_endian(bytes, first, (shift + p.size + 7) / 8);
      uint64_t mask = p.size >= 64 ? ~uint64_t(0) : (uint64_t(1) << p.size) - 1;
      return hex((word >> shift) & mask, 8);
    }
    case Piece::Kind::CharArray: return char_array(bytes, p.offset, p.size, p.outermost);
    case Piece::Kind::Float: {
      char buf[64];
      uint64_t bits = little_endian(bytes, p.offset, p.size);
      if (p.size == sizeof(float)) {
        float f;
        uint32_t narrow = static_cast<uint32_t>(bits);
        std::memcpy(&f, &narrow, sizeof f);
        std::snprintf(buf, sizeof buf, "%+.7e", static_cast<double>(f));
      } else if (p.size == sizeof(double)) {
        double d;
        std::memcpy(&d, &bits, sizeof d);
        std::snprintf(buf, sizeof buf, "%+.7e", d);
      } else {
        return "<unknown encoding>";
      }
      return buf;
    }
  }
  return "";
}

class Print : public Action {
 public:
  Print() : Action("print", {1, 1}) {}

  void check(Checker& c, ExprPtr& call) const override {
    c.value(call->operands[0], ErrTag::D_PRINT_VOID, ErrTag::D_PRINT_AGG);
    const Expr& arg = *call->operand(0);
    const Type* t = arg.type;
    bool printable = t->is_scalar() || t->is_string() || t->is_record() || t->is_array() || t->kind == TypeKind::Float;
    if (!printable || t->size == 0)
      fail(arg.loc, ErrTag::D_UNKNOWN, "print( ) argument #1 has type " + type_name(t) + " with size " + std::to_string(t->size) +
                        ": cannot print( ) this type");
    if (t->size > kMaxSize)
      fail(arg.loc, ErrTag::D_UNKNOWN, "print( ) argument #1 has type " + type_name(t) + " of " + std::to_string(t->size) +
                        " bytes: print( ) records at most " + std::to_string(kMaxSize));
    set_void(c, *call);
  }

  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    const Expr& arg = *call.operand(0);
    auto layout = std::make_shared<Layout>();
    LayoutBuilder(layout->pieces).member("", arg.type, 0, 0, 0, 0);
    abi::RecordField field;
    if (arg.type->is_scalar() || arg.type->is_string()) {
      field = l.records.value(arg);
    } else {
      codegen::Value v = l.exprs.eval(arg);
      llvm::Value* address = v.in_kernel ? v.v : l.ir.b().CreatePtrToInt(v.v, l.ir.i64());
      field = l.records.memory(address, static_cast<uint32_t>(arg.type->size));
    }
    abi::RecordedAction& action = l.records.action(*this);
    action.fields = {field};
    action.data = std::move(layout);
    return no_value(call);
  }

  void run(const abi::RecordedAction& action, const abi::RecordView& record, abi::RunContext& run) const override {
    const abi::RecordField& field = action.fields[0];
    std::string_view bytes = record.bytes().substr(field.offset, field.size);
    std::string text;
    for (const Piece& p : static_cast<const Layout&>(*action.data).pieces) text += render(p, bytes);
    run.output().report(name(), text);
  }
};

const Registered<Print> registered;

}  // namespace
}  // namespace dsched::lang
