// D options (#pragma D option name=value, -x name=value): their names, value syntax and defaults.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace dsched::lang {

enum class OptionKind {
  Flag,     // no value (or a value to ignore, as DTrace does)
  Count,    // a plain non-negative integer
  Size,     // bytes, with optional k/m/g/t suffix
  Rate,     // a time interval: ns/us/ms/s/m/h/d suffix, or hz; a bare number is hz
  Keyword,  // one of a fixed set of words (bufpolicy, bufresize)
};

struct OptionValue {
  OptionKind kind = OptionKind::Flag;
  int64_t number = 0;  // Count: the count; Size: bytes; Rate: interval in nanoseconds; Flag: 1
  std::string text;    // the value as written; the word for Keyword
};

struct Options {
  std::map<std::string, OptionValue> values;  // every option that was set

  bool is_set(const std::string& name) const { return values.count(name) != 0; }
  bool flag(const std::string& name) const { return is_set(name); }
  // The number of a set option, or `fallback`.
  int64_t number(const std::string& name, int64_t fallback) const;

  bool quiet() const { return flag("quiet"); }
  bool destructive() const { return flag("destructive"); }
  uint64_t strsize() const { return uint64_t(number("strsize", 256)); }
  int64_t nspec() const { return number("nspec", 1); }
};

// Parses and checks `value` (nullopt when no "=value" was given) for option `name`.
// On error returns false and sets `error` ("unrecognized option foo", "invalid value ...").
bool parse_option(const std::string& name, const std::optional<std::string>& value,
                  OptionValue* out, std::string* error);

}  // namespace dsched::lang
