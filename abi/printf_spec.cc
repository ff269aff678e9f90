#include "abi/printf_spec.h"

#include <cctype>
#include <string_view>

namespace dsched::printf_spec {

namespace {

constexpr std::string_view kIntegerProto = "char, short, int, long, or long long";
constexpr std::string_view kCharProto = "char, short, or int";
constexpr std::string_view kFloatProto = "float, double, or long double";
constexpr std::string_view kAddressProto = "pointer or integer";
constexpr std::string_view kStringProto = "char [] or string (or use stringof)";

std::string conv_error(unsigned number, std::string_view what) {
  return "format conversion #" + std::to_string(number) + " " + std::string(what);
}

std::string length_text(Length l) {
  switch (l) {
    case Length::None: return "";
    case Length::h: return "h";
    case Length::l: return "l";
    case Length::ll: return "ll";
    case Length::L: return "L";
    case Length::w: return "w";
  }
  return "";
}

std::optional<Length> parse_length(std::string_view s) {
  if (s.empty()) return Length::None;
  if (s == "h") return Length::h;
  if (s == "l") return Length::l;
  if (s == "ll") return Length::ll;
  if (s == "L") return Length::L;
  if (s == "w") return Length::w;
  return std::nullopt;
}

// Whether a length modifier may be combined with a conversion specifier.
bool length_allowed(Length l, char spec) {
  if (l == Length::None) return true;
  const bool integer = std::string_view("diouxX").find(spec) != std::string_view::npos;
  const bool floating = std::string_view("eEfgG").find(spec) != std::string_view::npos;
  if (l == Length::L) return floating;
  if (spec == 'c') return l == Length::l || l == Length::w;  // %lc and %wc: a wide character
  return integer && l != Length::w;
}

bool is_known_specifier(char c) {
  return std::string_view("aAcCdiouxXeEfgGpsSTYk%").find(c) != std::string_view::npos;
}

bool is_length_char(char c) {
  return c == 'h' || c == 'l' || c == 'L' || c == 'w';
}

// Parses one conversion starting just after its '%'. Returns the index after the specifier.
std::string parse_conversion(std::string_view text, size_t& i, Conversion& conv) {
  const size_t start = i - 1;  // the '%'
  bool dot = false;
  bool digits = false;
  std::string length;
  while (true) {
    if (i >= text.size()) return conv_error(conv.number, "name expected before end of format string");
    const char c = text[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      if (!dot && !digits && c == '0') {
        conv.zero = true;
        conv.left = false;
        ++i;
        continue;
      }
      int n = 0;
      while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
        if (n < 100000000) n = n * 10 + (text[i] - '0');
        ++i;
      }
      (dot ? conv.precision : conv.width) = n;
      digits = true;
      continue;
    }
    ++i;
    switch (c) {
      case '#': conv.alt = true; continue;
      case '+': conv.plus = true; continue;
      case '-': conv.left = true; conv.zero = false; continue;
      case ' ': conv.space = true; continue;
      case '\'': conv.group = true; continue;
      case '@': conv.aggregation = true; continue;
      case '?': conv.width = 16; continue;
      case '*': {
        bool& flag = dot ? conv.precision_from_arg : conv.width_from_arg;
        if (flag)
          return conv_error(conv.number, std::string("has more than one '*' specified for the output ") +
                                             (dot ? "precision" : "width"));
        flag = true;
        continue;
      }
      case '.':
        if (dot) return conv_error(conv.number, "has more than one '.' specified");
        dot = true;
        digits = false;
        continue;
      case '$':
        return conv_error(conv.number, "uses unsupported positional format (%n$)");
      case '%':
        if (i - 1 != start + 1) return conv_error(conv.number, "cannot be combined with other format flags: %%");
        break;
      default:
        if (is_length_char(c)) {
          length += c;
          continue;
        }
        break;
    }
    const auto len = parse_length(length);
    const std::string name = length + c;
    if (!len || !is_known_specifier(c) || !length_allowed(*len, c))
      return conv_error(conv.number, "is undefined: %" + name);
    conv.length = *len;
    conv.specifier = c;
    conv.text = std::string(text.substr(start, i - start));
    return {};
  }
}

std::string type_mismatch(std::string_view function, std::string_view arg_word, int argument,
                          const Conversion& conv, std::string_view proto, const ArgType& arg) {
  return std::string(function) + "( ) " + std::string(arg_word) + " #" + std::to_string(argument) +
         " is incompatible with conversion #" + std::to_string(conv.number) +
         " prototype:\n\tconversion: %" + length_text(conv.length) + conv.specifier +
         "\n\t prototype: " + std::string(proto) + "\n\t  argument: " + arg.display_name();
}

std::string_view prototype_of(const Conversion& conv) {
  const bool is_unsigned = conv.specifier == 'o' || conv.specifier == 'u';
  switch (conv.specifier == 'c' ? Length::None : conv.length) {
    case Length::h: return is_unsigned ? "unsigned short" : "short";
    case Length::l: return is_unsigned ? "unsigned long" : "long";
    case Length::ll: return is_unsigned ? "unsigned long long" : "long long";
    default: break;
  }
  switch (conv.specifier) {
    case 'c': return conv.length == Length::None ? kCharProto : "int";
    case 'C': return kCharProto;
    case 'e': case 'E': case 'f': case 'g': case 'G':
      return conv.length == Length::L ? "long double" : kFloatProto;
    case 'a': case 'A': case 'p': return kAddressProto;
    case 's': case 'S': return kStringProto;
    case 'T': case 'Y': return "int64_t";
    case 'k': return "stack";
    default: return kIntegerProto;
  }
}

// A length modifier names the C type its argument must have, as DTrace's conversion table does:
// h a short, l and ll a 64-bit integer, %lc and %wc an int; d and i want it signed, o and u
// unsigned, x and X either.
bool length_fits(const Conversion& conv, const ArgType& arg) {
  if (conv.length == Length::None || conv.length == Length::L) return true;
  if (arg.kind != ArgType::Kind::Integer) return false;
  const char spec = conv.specifier;
  if (spec == 'c') return arg.size == 4 && arg.is_signed;
  if (arg.size != (conv.length == Length::h ? 2u : 8u)) return false;
  if (spec == 'd' || spec == 'i') return arg.is_signed;
  if (spec == 'o' || spec == 'u') return !arg.is_signed;
  return true;
}

bool arg_fits(const Conversion& conv, const ArgType& arg) {
  using K = ArgType::Kind;
  if (!length_fits(conv, arg)) return false;
  switch (conv.specifier) {
    case 'c': case 'C': return arg.kind == K::Integer && arg.size <= 4;
    case 'e': case 'E': case 'f': case 'g': case 'G': return arg.kind == K::Float;
    case 'a': case 'A': case 'p': return arg.kind == K::Integer || arg.kind == K::Pointer;
    case 's': case 'S': return arg.kind == K::String;
    case 'T': case 'Y': return arg.kind == K::Integer && arg.size == 8;
    case 'k': return arg.kind == K::Stack;
    default: return arg.kind == K::Integer;
  }
}

std::string missing_arg(std::string_view function, const Conversion& conv, std::string_view what) {
  return std::string(function) + "( ) prototype mismatch: conversion #" + std::to_string(conv.number) +
         " (%" + length_text(conv.length) + conv.specifier + ") is missing a corresponding " +
         std::string(what) + " argument";
}

// Walks the conversions of `format`, handing out arguments from `args` (numbered from
// `first_number`) the way DTrace does: '*' width, then '.*' precision, then the value.
// `aggregation_value` is the type of '%@' values (nullopt: '%@' is not allowed).
std::optional<ArgError> check_args(const Format& format, std::span<const ArgType> args, int first_number,
                                   std::string_view function, std::optional<ArgType> aggregation_value,
                                   bool exact_count, std::string_view arg_word) {
  size_t next = 0;
  for (const Conversion* conv : format.conversions()) {
    if (conv->specifier == '%') continue;
    const int dyn_count = int(conv->width_from_arg) + int(conv->precision_from_arg);
    for (int d = 0; d < dyn_count; ++d) {
      const bool is_width = conv->width_from_arg && d == 0;
      const std::string star = is_width ? "\"*\"" : "\".*\"";
      if (next >= args.size()) return ArgError{missing_arg(function, *conv, star), 0, ArgError::Kind::DynamicMissing};
      const ArgType& a = args[next];
      const int number = first_number + int(next);
      if (a.kind != ArgType::Kind::Integer)
        return ArgError{std::string(function) + "( ) " + std::string(arg_word) + " #" + std::to_string(number) +
                            " is incompatible with conversion #" + std::to_string(conv->number) +
                            " prototype:\n\tconversion: % " + (is_width ? "*" : ".*") + " " +
                            length_text(conv->length) + conv->specifier + "\n\t prototype: int\n\t  argument: " +
                            a.display_name(),
                        number, ArgError::Kind::DynamicType};
      ++next;
    }
    if (conv->aggregation) {
      if (!aggregation_value)
        return ArgError{"%@ conversion requires an aggregation and is not for use with " + std::string(function) +
                            "( )",
                        0, ArgError::Kind::AggregationConversion};
      if (!arg_fits(*conv, *aggregation_value))
        return ArgError{std::string(function) + "( ) aggregating action is incompatible with conversion #" +
                            std::to_string(conv->number) + " prototype:\n\tconversion: %" +
                            length_text(conv->length) + conv->specifier + "\n\t prototype: " +
                            std::string(prototype_of(*conv)) + "\n\t  argument: " +
                            aggregation_value->display_name(),
                        0, ArgError::Kind::AggregationConversion};
      continue;
    }
    if (next >= args.size()) return ArgError{missing_arg(function, *conv, "value"), 0, ArgError::Kind::ValueMissing};
    const ArgType& a = args[next];
    const int number = first_number + int(next);
    if (!arg_fits(*conv, a))
      return ArgError{type_mismatch(function, arg_word, number, *conv, prototype_of(*conv), a), number};
    ++next;
  }
  if (exact_count && next < args.size())
    return ArgError{std::string(function) + "( ) prototype mismatch: only " + std::to_string(next) +
                        " arguments required by this format string",
                    first_number + int(next), ArgError::Kind::Extra};
  return std::nullopt;
}

}  // namespace

std::vector<const Conversion*> Format::conversions() const {
  std::vector<const Conversion*> out;
  for (const Piece& p : pieces)
    if (const auto* c = std::get_if<Conversion>(&p)) out.push_back(c);
  return out;
}

ParseResult parse_format(std::string_view text) {
  ParseResult result;
  unsigned number = 0;
  size_t literal_start = 0;
  size_t i = 0;
  while ((i = text.find('%', literal_start)) != std::string_view::npos) {
    if (i > literal_start) result.format.pieces.emplace_back(std::string(text.substr(literal_start, i - literal_start)));
    Conversion conv;
    conv.number = ++number;
    ++i;
    result.error = parse_conversion(text, i, conv);
    if (!result.error.empty()) {
      result.format.pieces.clear();
      return result;
    }
    result.format.pieces.emplace_back(std::move(conv));
    literal_start = i;
  }
  if (literal_start < text.size()) result.format.pieces.emplace_back(std::string(text.substr(literal_start)));
  return result;
}

ArgType ArgType::integer(unsigned size, bool is_signed, std::string name) {
  return ArgType{Kind::Integer, size, is_signed, std::move(name)};
}
ArgType ArgType::pointer(std::string name) { return ArgType{Kind::Pointer, 8, false, std::move(name)}; }
ArgType ArgType::string(std::string name) { return ArgType{Kind::String, 0, false, std::move(name)}; }
ArgType ArgType::floating(unsigned size, std::string name) { return ArgType{Kind::Float, size, true, std::move(name)}; }
ArgType ArgType::stack() { return ArgType{Kind::Stack, 8, false, "stack"}; }

std::string ArgType::display_name() const {
  if (!name.empty()) return name;
  switch (kind) {
    case Kind::Integer: {
      const char* base = size == 1 ? "char" : size == 2 ? "short" : size == 4 ? "int" : "long long";
      return std::string(is_signed ? "" : "unsigned ") + base;
    }
    case Kind::Pointer: return "void *";
    case Kind::String: return "string";
    case Kind::Float: return size == 4 ? "float" : size == 8 ? "double" : "long double";
    case Kind::Stack: return "stack";
  }
  return "?";
}

std::optional<ArgError> check_printf_args(const Format& format, std::span<const ArgType> args,
                                          std::string_view function) {
  if (format.pieces.empty())
    return ArgError{std::string(function) + "( ) format string is empty", 1, ArgError::Kind::EmptyFormat};
  return check_args(format, args, 2, function, std::nullopt, true, "argument");
}

std::optional<ArgError> check_printa_args(const Format& format, std::span<const ArgType> keys,
                                          bool value_is_unsigned) {
  if (format.pieces.empty()) return ArgError{"printa( ) format string is empty", 1, ArgError::Kind::EmptyFormat};
  const ArgType value = ArgType::integer(8, !value_is_unsigned, value_is_unsigned ? "uint64_t" : "int64_t");
  auto err = check_args(format, keys, 1, "printa", value, false, "key");
  // Key problems belong to the aggregation argument (#2 of printa), not to a call argument.
  if (err && err->argument != 0) err->argument = 2;
  return err;
}

}  // namespace dsched::printf_spec
