#include "printf_render.h"

#include <ctime>
#include <cwchar>
#include <stdexcept>

#include "addresses.h"
#include "cformat.h"

namespace dsched::output {

using printf_spec::Conversion;
using printf_spec::Length;

namespace {

// "%" plus the flags, width and precision of `conv` (without length and specifier).
std::string format_prefix(const Conversion& conv, int width, int precision) {
  std::string f = "%";
  if (conv.alt) f += '#';
  if (conv.zero) f += '0';
  if (width < 0 || conv.left) f += '-';
  if (conv.plus) f += '+';
  if (conv.group) f += '\'';
  if (conv.space) f += ' ';
  if (width != 0) f += std::to_string(width < 0 ? -int64_t(width) : int64_t(width));
  if (precision > 0) f += "." + std::to_string(precision);
  return f;
}

[[noreturn]] void mismatch(const Conversion& conv, const char* needed) {
  throw std::invalid_argument("format conversion #" + std::to_string(conv.number) + " (" + conv.text + ") needs " +
                              needed);
}

void require(const Conversion& conv, const Value& v, Value::Kind kind, const char* needed) {
  if (v.kind != kind) mismatch(conv, needed);
}

// Integer conversions: the C length modifier follows the user's when given (C semantics),
// otherwise the D size of the argument, as DTrace does.
std::string render_integer(const Conversion& conv, const std::string& prefix, const Value& value) {
  // A symbol's integer conversions print its address.
  const Value v = value.kind == Value::Kind::Symbol ? Value::integer(int64_t(value.bits), 8, false) : value;
  require(conv, v, Value::Kind::Integer, "an integer");
  char spec = conv.specifier == 'p' ? 'x' : conv.specifier;
  const bool is_signed_conv = spec == 'd' || spec == 'i';
  if (is_signed_conv && !v.is_signed) spec = 'u';
  const bool as_signed = spec == 'd' || spec == 'i';
  const std::string s(1, spec);
  switch (conv.length) {
    case Length::h:
      return cformat((prefix + "h" + s).c_str(), int(v.bits));
    case Length::l:
    case Length::ll:
      return cformat((prefix + "ll" + s).c_str(), (long long)v.bits);
    default:
      break;
  }
  if (v.size >= 8) return cformat((prefix + "ll" + s).c_str(), (long long)v.bits);
  if (as_signed) return cformat((prefix + s).c_str(), int(v.as_signed()));
  return cformat((prefix + s).c_str(), unsigned(v.as_unsigned()));
}

std::string render_stack(const Conversion& conv, int width, const Value& v, const RenderContext& context) {
  require(conv, v, Value::Kind::Stack, "a stack");
  // A left-justified width becomes the indent of every frame; any other width applies to
  // each frame's text.
  const bool left = width < 0 || conv.left;
  const int indent = left ? (width < 0 ? -width : width) : 0;
  return stack_text(context.symbols, v, indent, format_prefix(conv, left ? 0 : width, 0) + "s");
}

// %a and %A: a kernel or user address as a frame ("mod`func+0x10"). A symbol value prints in its
// own form; a user address needs its process, which only a symbol value carries.
std::string render_address(const Conversion& conv, const std::string& prefix, const Value& v,
                           const RenderContext& context) {
  std::string text;
  if (v.kind == Value::Kind::Symbol)
    text = address_text(context.symbols, v);
  else if (v.kind == Value::Kind::Integer && conv.specifier == 'a')
    text = frame_text(context.symbols, false, 0, v.bits);
  else if (v.kind == Value::Kind::Integer) {
    // A user address with no process recorded (a printa key): $target's, as in DTrace.
    const uint32_t pid = context.symbols ? context.symbols->target_process() : 0;
    text = frame_text(pid ? context.symbols : nullptr, true, pid, v.bits);
  }
  else
    mismatch(conv, "an address");
  return cformat((prefix + "s").c_str(), text.c_str());
}

}  // namespace

std::string render_conversion(const Conversion& conv, int width, int precision, const Value& v,
                              const RenderContext& context) {
  const std::string prefix = format_prefix(conv, width, precision);
  switch (conv.specifier) {
    case '%':
      return "%";
    case 'd': case 'i': case 'o': case 'u': case 'x': case 'X': case 'p':
      return render_integer(conv, prefix, v);
    case 'c':
      require(conv, v, Value::Kind::Integer, "an integer");
      if (conv.length == Length::l || conv.length == Length::w)
        return cformat((prefix + "lc").c_str(), wint_t(v.as_signed()));
      return cformat((prefix + "c").c_str(), int(v.as_signed()));
    case 'C':  // the character escaped as %S escapes a string
      require(conv, v, Value::Kind::Integer, "an integer");
      return cformat((prefix + "s").c_str(), escape_string(std::string(1, char(v.as_signed()))).c_str());
    case 'e': case 'E': case 'f': case 'g': case 'G': {
      require(conv, v, Value::Kind::Float, "a floating-point value");
      const std::string s(1, conv.specifier);
      if (conv.length == Length::L) return cformat((prefix + "L" + s).c_str(), v.real);
      return cformat((prefix + s).c_str(), double(v.real));
    }
    case 's':
      require(conv, v, Value::Kind::String, "a string");
      return cformat((prefix + "s").c_str(), v.text.c_str());
    case 'S':  // as DTrace escapes the string's record: its terminating NUL too, as \0
      require(conv, v, Value::Kind::String, "a string");
      return cformat((prefix + "s").c_str(), (escape_string(v.text) + "\\0").c_str());
    case 'a':
    case 'A':
      return render_address(conv, prefix, v, context);
    case 'Y':
      require(conv, v, Value::Kind::Integer, "a walltimestamp");
      return cformat((prefix + "s").c_str(), format_walltime(v.bits).c_str());
    case 'T':
      require(conv, v, Value::Kind::Integer, "a walltimestamp");
      return cformat((prefix + "s").c_str(), format_walltime_rfc822(v.bits).c_str());
    case 'k':
      return render_stack(conv, width, v, context);
    default:
      mismatch(conv, "a known conversion");
  }
}

std::string render_format(const printf_spec::Format& format, std::span<const Value> args,
                          const RenderContext& context, const AggregationRenderer& aggregation) {
  std::string out;
  size_t next = 0;
  auto take = [&](const Conversion& conv) -> const Value& {
    if (next >= args.size()) mismatch(conv, "an argument");
    return args[next++];
  };
  auto take_int = [&](const Conversion& conv) {
    const Value& v = take(conv);
    require(conv, v, Value::Kind::Integer, "an integer width or precision");
    return int(v.as_signed());
  };
  for (const printf_spec::Piece& piece : format.pieces) {
    if (const auto* text = std::get_if<std::string>(&piece)) {
      out += *text;
      continue;
    }
    const Conversion& conv = std::get<Conversion>(piece);
    if (conv.specifier == '%') {
      out += '%';
      continue;
    }
    const int width = conv.width_from_arg ? take_int(conv) : conv.width;
    const int precision = conv.precision_from_arg ? take_int(conv) : conv.precision;
    if (conv.aggregation) {
      if (!aggregation) mismatch(conv, "an aggregation (printa)");
      out += aggregation(conv, width, precision);
      continue;
    }
    out += render_conversion(conv, width, precision, take(conv), context);
  }
  return out;
}

std::string escape_string(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '\0': out += "\\0"; break;
      case '\a': out += "\\a"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\v': out += "\\v"; break;
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case ' ': out += ' '; break;
      default: {
        const unsigned char u = static_cast<unsigned char>(c);
        if (u < '!' || u > '~')
          out += cformat("\\%c%c%c", '0' + ((u >> 6) & 3), '0' + ((u >> 3) & 7), '0' + (u & 7));
        else
          out += c;
      }
    }
  }
  return out;
}

std::string format_walltime(uint64_t ns) {
  static const char* const kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const time_t sec = time_t(int64_t(ns) / 1000000000);
  struct tm tm {};
  localtime_r(&sec, &tm);
  return cformat("%d %s %2d %02d:%02d:%02d", tm.tm_year + 1900, kMonths[tm.tm_mon], tm.tm_mday, tm.tm_hour,
                 tm.tm_min, tm.tm_sec);
}

std::string format_walltime_rfc822(uint64_t ns) {
  // DTrace's form, ISO week-numbering year (%G) included.
  const time_t sec = time_t(int64_t(ns) / 1000000000);
  struct tm tm {};
  localtime_r(&sec, &tm);
  char text[64];
  return std::string(text, strftime(text, sizeof text, "%a, %d %b %G %T %Z", &tm));
}

}  // namespace dsched::output
