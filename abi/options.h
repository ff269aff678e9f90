// D options (#pragma D option name=value, -x name=value, setopt()): one table of every option
// DTrace defines, each saying when it is read and whether dsched implements it. The compiler
// reads the compile-time ones; the compiled program carries the values to the runtime.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace dsched::abi {

enum class OptionKind {
  Flag,     // no value, or an integer (0 turns it off), as DTrace reads it
  Count,    // a non-negative integer
  Size,     // bytes, with an optional k/m/g/t suffix
  Rate,     // a time interval: ns/us/ms/s/m/h/d suffix, or hz; a bare number is hz
  Keyword,  // one of a fixed set of words
  Text,     // any text (a path, a macro definition)
};

// When DTrace reads an option: while compiling, when tracing starts, or at any time (setopt()).
enum class OptionPhase { Compile, Run, Dynamic };

struct OptionSpec {
  const char* name;
  OptionKind kind;
  OptionPhase phase;
  int64_t default_number;       // Count/Size/Rate (nanoseconds); 0 for the others
  const char* words = nullptr;  // Keyword: the words DTrace accepts, blank-separated
  const char* supported_words = nullptr;  // Keyword: those dsched implements (null: all)
  bool supported = true;        // false: refused with "option X is not supported"
  int64_t largest = 0;          // Size, Count: the largest value taken (0: any), and why no larger one
  const char* largest_reason = nullptr;
  int64_t smallest = 0;         // Size, Count: the smallest value taken (0: any), and why no smaller one
  const char* smallest_reason = nullptr;
  bool unlimited = false;       // Size: "unlimited" is a value too (number -1)
};

struct OptionValue {
  OptionKind kind = OptionKind::Flag;
  int64_t number = 0;  // Count; Size in bytes; Rate in nanoseconds; Flag 1 or the value given
  std::string text;    // the value as written; the word of a Keyword
};

// The options a program set (by pragma, -x or the command line's own flags).
class Options {
 public:
  bool is_set(std::string_view name) const { return values_.count(std::string(name)) != 0; }
  // A flag that is set to a nonzero value.
  bool flag(std::string_view name) const;
  // The option's number, or the table's default when it was not set.
  int64_t number(std::string_view name) const;
  // The text of a set option, or "".
  std::string text(std::string_view name) const;
  void set(std::string_view name, OptionValue value) { values_[std::string(name)] = std::move(value); }
  const std::map<std::string, OptionValue, std::less<>>& values() const { return values_; }

  bool quiet() const { return flag("quiet"); }
  bool destructive() const { return flag("destructive"); }
  uint64_t strsize() const { return uint64_t(number("strsize")); }
  // A D string holds up to strsize characters and then its NUL, as DTrace's do; it takes whole
  // words, zero-padded, so that it is copied and compared by words.
  uint64_t string_capacity() const { return strsize() + 1; }
  uint64_t string_bytes() const { return (string_capacity() + 7) & ~uint64_t(7); }
  int64_t nspec() const { return number("nspec"); }

 private:
  std::map<std::string, OptionValue, std::less<>> values_;
};

std::span<const OptionSpec> option_table();
const OptionSpec* find_option(std::string_view name);
// The interval, in nanoseconds, of a rate as DTrace reads a profile probe's: no unit or "hz"
// per second, else ns, us, ms, s, m (minutes), h, d and their long forms, in any case; nullopt
// when the unit is none of them, the number is 0, or the interval would not fit.
std::optional<int64_t> rate_interval(uint64_t number, std::string_view unit);

// Parses `value` (nullopt when no "=value" was given) for option `name`. On failure returns false
// with `error` set: "unrecognized option X", "option X is not supported" or
// "invalid value for option X: V".
bool parse_option(std::string_view name, const std::optional<std::string>& value, OptionValue* out,
                  std::string* error);

}  // namespace dsched::abi
