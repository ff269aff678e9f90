// D printf/printa format strings: parsing into literal text and conversions, and checking the
// arguments of a printf()/printa() call against simple type descriptors.
//
// The accepted syntax is C's (flags, width, precision, '*' for either, length modifiers
// hh h l ll L z j t) plus D's extras: '%@' (the aggregation value in printa), '?' (pointer-sized
// width), %a %A (symbols), %k (stack), %S (escaped string), %Y (walltimestamp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace dsched::printf_spec {

// The length modifiers DTrace defines; w is its wide-character modifier (%wc).
enum class Length : uint8_t { None, h, l, ll, L, w };

struct Conversion {
  bool left = false;      // '-'
  bool plus = false;      // '+'
  bool space = false;     // ' '
  bool alt = false;       // '#'
  bool zero = false;      // '0'
  bool group = false;     // '\''
  bool aggregation = false;  // '@': consumes the aggregation value (printa only)
  int width = 0;
  bool width_from_arg = false;      // '*'
  int precision = 0;                // DTrace applies a precision only when it is > 0
  bool precision_from_arg = false;  // '.*'
  Length length = Length::None;
  char specifier = 0;  // one of: a A c d i o u x X e E f g G p s S Y k %
  unsigned number = 0;  // 1-based conversion number, as DTrace counts them in messages
  std::string text;     // the conversion as written, e.g. "%-8lld"
};

using Piece = std::variant<std::string, Conversion>;

struct Format {
  std::vector<Piece> pieces;
  std::vector<const Conversion*> conversions() const;
};

enum class FormatKind { Printf, Printa };

struct ParseResult {
  Format format;
  std::string error;  // empty on success
  bool ok() const { return error.empty(); }
};

// Parses a D format string. Errors are worded as DTrace words them
// ("format conversion #2 is undefined: %q").
ParseResult parse_format(std::string_view text);

// What the front end knows about one argument expression.
struct ArgType {
  enum class Kind { Integer, Pointer, String, Float, Stack };
  Kind kind = Kind::Integer;
  unsigned size = 8;       // bytes (integers, pointers, floats)
  bool is_signed = true;   // integers
  std::string name;        // D type name for messages ("int", "string", ...)

  static ArgType integer(unsigned size, bool is_signed, std::string name = {});
  static ArgType pointer(std::string name = "void *");
  static ArgType string(std::string name = "string");
  static ArgType floating(unsigned size, std::string name = {});
  static ArgType stack();
  std::string display_name() const;
};

struct ArgError {
  // What is wrong, in the classes of DTrace's error tags (D_PRINTF_DYN_PROTO...).
  enum class Kind { DynamicMissing, DynamicType, AggregationConversion, ValueMissing, ValueType, Extra, EmptyFormat };
  std::string message;
  // 1-based argument number of the offending argument in the call (the format is #1 for
  // printf, @aggregation... follow it for printa); 0 when the error is about the format itself.
  int argument = 0;
  Kind kind = Kind::ValueType;
};

// Checks printf()-style arguments (everything after the format). `function` names the action
// in messages ("printf", "sprintf", "system"...).
std::optional<ArgError> check_printf_args(const Format& format, std::span<const ArgType> args,
                                          std::string_view function = "printf");

// Checks a printa() format against the aggregation's key types: key conversions take the keys
// in order, '%@' conversions take the aggregation value (unsigned for count(), else signed).
// Extra keys without a conversion are allowed, as in DTrace.
std::optional<ArgError> check_printa_args(const Format& format, std::span<const ArgType> keys,
                                          bool value_is_unsigned);

}  // namespace dsched::printf_spec
