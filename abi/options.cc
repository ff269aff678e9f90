#include "abi/options.h"

#include <strings.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <utility>

namespace dsched::abi {
namespace {

using K = OptionKind;
using P = OptionPhase;
constexpr bool kNo = false;

// Every option of DTrace's option tables. Where dsched reads each supported one:
//   compiler: stdc (the preprocessor's flags), argref, strsize, nspec, bufsize, aggsize, dynvarsize, cpu, defaultargs, zdefs, destructive,
//             stackframes and ustackframes (frames that stack() and ustack() record by default), maxframes (the most they record)
//   runtime:  evaltime (where a -c command waits for tracing to start), lockmem (set before loading), quiet, bufpolicy (fill: the read loop stops tracing; ring: records are kept until the end), bufresize (the loader), oformat
//             (which output), flowindent, rawbytes, stackindent and foldstacks (the text output), aggsort*, specsize, switchrate (how often the buffers are read), statusrate
//             (how often drops are reported), aggpercpu (aggregations keep and print each CPU's value), aggrate and cleanrate (dsched reads aggregations when
//             they print and frees dynamic variables when they are assigned 0, so both are always met)
constexpr OptionSpec kOptions[] = {
    // Compile-time options.
    {"aggpercpu", K::Flag, P::Compile, 0},
    {"amin", K::Text, P::Compile, 0, nullptr, nullptr, kNo},
    {"argref", K::Flag, P::Compile, 0},
    {"core", K::Text, P::Compile, 0, nullptr, nullptr, kNo},
    {"cpp", K::Flag, P::Compile, 0, nullptr, nullptr, kNo},
    {"cpphdrs", K::Flag, P::Compile, 0, nullptr, nullptr, kNo},
    {"cpppath", K::Text, P::Compile, 0, nullptr, nullptr, kNo},
    {"ctypes", K::Text, P::Compile, 0, nullptr, nullptr, kNo},
    {"debug", K::Flag, P::Compile, 0, nullptr, nullptr, kNo},
    {"defaultargs", K::Flag, P::Compile, 0},
    {"define", K::Text, P::Compile, 0, nullptr, nullptr, kNo},
    {"droptags", K::Flag, P::Compile, 0, nullptr, nullptr, kNo},
    {"dtypes", K::Text, P::Compile, 0, nullptr, nullptr, kNo},
    {"empty", K::Flag, P::Compile, 0, nullptr, nullptr, kNo},
    {"encoding", K::Text, P::Compile, 0, nullptr, nullptr, kNo},
    {"errtags", K::Flag, P::Compile, 0},
    {"evaltime", K::Keyword, P::Compile, 0, "exec preinit postinit main"},
    {"incdir", K::Text, P::Compile, 0, nullptr, nullptr, kNo},
    {"iregs", K::Count, P::Compile, 0, nullptr, nullptr, kNo},
    {"kdefs", K::Flag, P::Compile, 0, nullptr, nullptr, kNo},
    {"knodefs", K::Flag, P::Compile, 0, nullptr, nullptr, kNo},
    {"late", K::Keyword, P::Compile, 0, "static dynamic", nullptr, kNo},
    {"lazyload", K::Flag, P::Compile, 0, nullptr, nullptr, kNo},
    {"ldpath", K::Text, P::Compile, 0, nullptr, nullptr, kNo},
    {"libdir", K::Text, P::Compile, 0, nullptr, nullptr, kNo},
    {"linkmode", K::Keyword, P::Compile, 0, "kernel static dynamic", nullptr, kNo},
    {"linktype", K::Keyword, P::Compile, 0, "elf dof", nullptr, kNo},
    {"nolibs", K::Flag, P::Compile, 0, nullptr, nullptr, kNo},
    {"pgmax", K::Count, P::Compile, 0, nullptr, nullptr, kNo},
    {"pspec", K::Flag, P::Compile, 0, nullptr, nullptr, kNo},
    {"setenv", K::Text, P::Compile, 0, nullptr, nullptr, kNo},
    {"stdc", K::Keyword, P::Compile, 0, "a c s t"},
    {"strip", K::Flag, P::Compile, 0, nullptr, nullptr, kNo},
    {"syslibdir", K::Text, P::Compile, 0, nullptr, nullptr, kNo},
    {"tree", K::Count, P::Compile, 0, nullptr, nullptr, kNo},
    {"tregs", K::Count, P::Compile, 0, nullptr, nullptr, kNo},
    {"udefs", K::Flag, P::Compile, 0, nullptr, nullptr, kNo},
    {"undef", K::Text, P::Compile, 0, nullptr, nullptr, kNo},
    {"unodefs", K::Flag, P::Compile, 0, nullptr, nullptr, kNo},
    {"unsetenv", K::Text, P::Compile, 0, nullptr, nullptr, kNo},
    {"verbose", K::Flag, P::Compile, 0, nullptr, nullptr, kNo},
    {"version", K::Text, P::Compile, 0, nullptr, nullptr, kNo},
    {"zdefs", K::Flag, P::Compile, 0},
    // Run-time options: read when tracing starts.
    {"aggsize", K::Size, P::Run, 4 << 20},
    {"bufpolicy", K::Keyword, P::Run, 0, "fill switch ring", "switch fill ring"},
    {"bufresize", K::Keyword, P::Run, 0, "auto manual"},  // unset: auto, as in DTrace
    {"bufsize", K::Size, P::Run, 4 << 20, nullptr, nullptr, true, 1 << 30, "the trace buffer holds at most 1g"},
    {"cleanrate", K::Rate, P::Run, 1000000000 / 101},
    {"cpu", K::Count, P::Run, -1},
    {"destructive", K::Flag, P::Run, 0},
    {"dynvarsize", K::Size, P::Run, 1 << 20},
    {"grabanon", K::Flag, P::Run, 0, nullptr, nullptr, kNo},
    {"jstackframes", K::Count, P::Run, 0, nullptr, nullptr, kNo},
    {"jstackstrsize", K::Size, P::Run, 0, nullptr, nullptr, kNo},
    // DTrace for Linux's: the locked-memory limit (RLIMIT_MEMLOCK) BPF maps count against on
    // kernels that charge them there.
    {"lockmem", K::Size, P::Run, 0, nullptr, nullptr, true, 0, nullptr, 0, nullptr, true},
    {"maxframes", K::Count, P::Run, 127, nullptr, nullptr, true, 127, "the kernel records at most 127 frames"},
    {"nspec", K::Count, P::Run, 1},
    {"quietresize", K::Flag, P::Run, 0},  // DTrace for Linux's: bufresize=auto lowers sizes silently
    {"oformat", K::Keyword, P::Run, 0, "text json xml html", "text json"},  // FreeBSD's
    {"specsize", K::Size, P::Run, 32 << 10},
    {"stackframes", K::Count, P::Run, 20},
    {"statusrate", K::Rate, P::Run, 100000000},
    {"strsize", K::Size, P::Run, 256, nullptr, nullptr, true, 1 << 20, "a string holds at most 1m",
     2, "a string holds at least 2 characters"},
    {"temporal", K::Flag, P::Run, 0, nullptr, nullptr, kNo},
    {"ustackframes", K::Count, P::Run, 100},
    // Dynamic run-time options: setopt() may change them while tracing.
    {"agghist", K::Flag, P::Dynamic, 0, nullptr, nullptr, kNo},
    {"aggpack", K::Flag, P::Dynamic, 0, nullptr, nullptr, kNo},
    {"aggrate", K::Rate, P::Dynamic, 1000000000},
    {"aggsortkey", K::Flag, P::Dynamic, 0},
    {"aggsortkeypos", K::Count, P::Dynamic, 0},
    {"aggsortpos", K::Count, P::Dynamic, 0},
    {"aggsortrev", K::Flag, P::Dynamic, 0},
    {"aggzoom", K::Flag, P::Dynamic, 0},
    {"flowindent", K::Flag, P::Dynamic, 0},
    {"quiet", K::Flag, P::Dynamic, 0},
    {"rawbytes", K::Flag, P::Dynamic, 0},
    {"stackindent", K::Count, P::Dynamic, 14},
    // dsched's own: aggregations keyed by stacks print as folded flame-graph lines.
    {"foldstacks", K::Flag, P::Dynamic, 0},
    {"switchrate", K::Rate, P::Dynamic, 100000000},
};

// Splits "100k" into 100 and "k"; false when there are no leading digits or on overflow. As in
// DTrace the number is C's: 0x1000 is hexadecimal and 010 octal.
bool split_number(const std::string& text, uint64_t* number, std::string* suffix) {
  if (text.empty() || text[0] < '0' || text[0] > '9') return false;
  errno = 0;
  char* end = nullptr;
  *number = std::strtoull(text.c_str(), &end, 0);
  if (errno == ERANGE) return false;
  *suffix = text.substr(size_t(end - text.c_str()));
  return true;
}

bool scale(uint64_t number, uint64_t factor, int64_t* out) {
  if (factor != 0 && number > uint64_t(INT64_MAX) / factor) return false;
  *out = int64_t(number * factor);
  return true;
}

bool parse_size(const std::string& text, int64_t* out) {
  uint64_t number;
  std::string suffix;
  if (!split_number(text, &number, &suffix)) return false;
  static const std::pair<const char*, uint64_t> units[] = {
      {"", 1}, {"k", 1ull << 10}, {"m", 1ull << 20}, {"g", 1ull << 30}, {"t", 1ull << 40}};
  for (auto [unit, factor] : units)
    if (strcasecmp(suffix.c_str(), unit) == 0) return scale(number, factor, out);
  return false;
}

bool parse_rate(const std::string& text, int64_t* out) {
  uint64_t number;
  std::string suffix;
  if (!split_number(text, &number, &suffix)) return false;
  // An option's rate without a unit is in nanoseconds, where a profile probe's is in hertz.
  if (suffix.empty()) suffix = "ns";
  std::optional<int64_t> interval = rate_interval(number, suffix);
  if (interval) *out = *interval;
  return interval.has_value();
}

bool has_word(const char* words, const std::string& word) {
  std::istringstream in(words);
  for (std::string w; in >> w;)
    if (w == word) return true;
  return false;
}

}  // namespace

std::optional<int64_t> rate_interval(uint64_t number, std::string_view unit) {
  if (number == 0) return std::nullopt;
  const std::string text(unit);
  if (text.empty() || strcasecmp(text.c_str(), "hz") == 0) {
    if (number > 1000000000ull) return std::nullopt;
    return int64_t(1000000000ull / number);
  }
  static const std::pair<const char*, uint64_t> units[] = {
      {"ns", 1}, {"nsec", 1}, {"us", 1000}, {"usec", 1000}, {"ms", 1000000},
      {"msec", 1000000}, {"s", 1000000000}, {"sec", 1000000000}, {"m", 60000000000},
      {"min", 60000000000}, {"h", 3600000000000}, {"hour", 3600000000000},
      {"d", 86400000000000}, {"day", 86400000000000}};
  for (auto [name, factor] : units)
    if (strcasecmp(text.c_str(), name) == 0) {
      if (number > uint64_t(INT64_MAX) / factor) return std::nullopt;
      return int64_t(number * factor);
    }
  return std::nullopt;
}

bool Options::flag(std::string_view name) const {
  auto it = values_.find(name);
  return it != values_.end() && it->second.number != 0;
}

int64_t Options::number(std::string_view name) const {
  auto it = values_.find(name);
  if (it != values_.end()) return it->second.number;
  const OptionSpec* spec = find_option(name);
  return spec ? spec->default_number : 0;
}

std::string Options::text(std::string_view name) const {
  auto it = values_.find(name);
  return it == values_.end() ? std::string() : it->second.text;
}

std::span<const OptionSpec> option_table() { return kOptions; }

const OptionSpec* find_option(std::string_view name) {
  for (const OptionSpec& spec : kOptions)
    if (name == spec.name) return &spec;
  return nullptr;
}

bool parse_option(std::string_view name, const std::optional<std::string>& value, OptionValue* out,
                  std::string* error) {
  const OptionSpec* spec = find_option(name);
  if (!spec) {
    *error = "unrecognized option: " + std::string(name);
    return false;
  }
  if (!spec->supported) {
    *error = "option " + std::string(name) + " is not supported";
    return false;
  }
  out->kind = spec->kind;
  out->text = value.value_or("");
  auto invalid = [&] {
    *error = "invalid value for option " + std::string(name) + ": " + out->text;
    return false;
  };
  if (spec->kind == OptionKind::Flag) {
    if (!value) {
      out->number = 1;
      return true;
    }
    // A compiler flag takes no value at all.
    if (spec->phase == OptionPhase::Compile) return invalid();
    // Any other flag is off when its value is empty or one of DTrace's words for off, and on
    // otherwise: DTrace keeps a number as the option's value and reads the flag as "set", so even
    // quiet=0 turns quiet on.
    static constexpr std::pair<const char*, const char*> kWords[] = {
        {"yes", "no"}, {"enable", "disable"}, {"enabled", "disabled"}, {"true", "false"}, {"on", "off"}, {"set", "unset"}};
    for (auto [on, off] : kWords) {
      if (strcasecmp(value->c_str(), on) == 0 || strcasecmp(value->c_str(), off) == 0) {
        out->number = strcasecmp(value->c_str(), on) == 0;
        return true;
      }
    }
    if (value->empty()) {
      out->number = 0;
      return true;
    }
    char* end = nullptr;
    errno = 0;
    long long number = std::strtoll(value->c_str(), &end, 0);
    out->number = 1;
    return (*end == '\0' && errno == 0 && number >= 0) || invalid();
  }
  if (!value || value->empty()) {
    *error = "option " + std::string(name) + " requires a value";
    return false;
  }
  bool ok = false;
  switch (spec->kind) {
    case OptionKind::Count: {
      uint64_t number;
      std::string suffix;
      ok = split_number(*value, &number, &suffix) && suffix.empty() && number <= INT64_MAX;
      out->number = int64_t(number);
      break;
    }
    case OptionKind::Size:
      if (spec->unlimited && strcasecmp(value->c_str(), "unlimited") == 0) {
        out->number = -1;
        return true;
      }
      // A size of nothing would hold nothing: every record or entry would be a drop.
      ok = parse_size(*value, &out->number) && out->number > 0;
      break;
    case OptionKind::Rate: ok = parse_rate(*value, &out->number); break;
    case OptionKind::Keyword:
      ok = has_word(spec->words, *value);
      if (ok && spec->supported_words && !has_word(spec->supported_words, *value)) {
        *error = "option " + std::string(name) + "=" + *value + " is not supported";
        return false;
      }
      break;
    case OptionKind::Text: ok = true; break;
    case OptionKind::Flag: break;
  }
  if (ok && spec->largest && out->number > spec->largest) {
    *error = "invalid value for option " + std::string(name) + ": " + *value + " (" + spec->largest_reason + ")";
    return false;
  }
  if (ok && out->number < spec->smallest) {
    *error = "invalid value for option " + std::string(name) + ": " + *value + " (" + spec->smallest_reason + ")";
    return false;
  }
  return ok || invalid();
}

}  // namespace dsched::abi
