#include "options.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace dsched::lang {
namespace {

struct OptionSpec {
  const char* name;
  OptionKind kind;
};

// DTrace's options that mean something on Linux.
constexpr OptionSpec kOptions[] = {
    {"aggpercpu", OptionKind::Flag},      {"aggrate", OptionKind::Rate},
    {"aggsize", OptionKind::Size},        {"aggsortkey", OptionKind::Flag},
    {"aggsortkeypos", OptionKind::Count}, {"aggsortpos", OptionKind::Count},
    {"aggsortrev", OptionKind::Flag},     {"bufpolicy", OptionKind::Keyword},
    {"bufresize", OptionKind::Keyword},   {"bufsize", OptionKind::Size},
    {"cleanrate", OptionKind::Rate},      {"cpu", OptionKind::Count},
    {"defaultargs", OptionKind::Flag},    {"destructive", OptionKind::Flag},
    {"dynvarsize", OptionKind::Size},     {"flowindent", OptionKind::Flag},
    {"nspec", OptionKind::Count},         {"quiet", OptionKind::Flag},
    {"rawbytes", OptionKind::Flag},       {"specsize", OptionKind::Size},
    {"stackframes", OptionKind::Count},   {"stackindent", OptionKind::Count},
    {"statusrate", OptionKind::Rate},     {"strsize", OptionKind::Size},
    {"switchrate", OptionKind::Rate},     {"ustackframes", OptionKind::Count},
    {"zdefs", OptionKind::Flag},
};

const OptionSpec* find_option(const std::string& name) {
  for (const OptionSpec& spec : kOptions)
    if (name == spec.name) return &spec;
  return nullptr;
}

// Splits "100k" into 100 and "k"; false when there are no leading digits or on overflow.
bool split_number(const std::string& text, uint64_t* number, std::string* suffix) {
  size_t i = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
  if (i == 0) return false;
  errno = 0;
  *number = std::strtoull(text.substr(0, i).c_str(), nullptr, 10);
  if (errno == ERANGE) return false;
  *suffix = text.substr(i);
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
  for (auto [unit, factor] : units) {
    if (strcasecmp(suffix.c_str(), unit) == 0) return scale(number, factor, out);
  }
  return false;
}

bool parse_rate(const std::string& text, int64_t* out) {
  uint64_t number;
  std::string suffix;
  if (!split_number(text, &number, &suffix)) return false;
  if (suffix.empty() || suffix == "hz") {
    if (number == 0) return false;
    *out = int64_t(1000000000ull / number);
    return *out > 0;
  }
  static const std::pair<const char*, uint64_t> units[] = {
      {"ns", 1}, {"nsec", 1}, {"us", 1000}, {"usec", 1000}, {"ms", 1000000},
      {"msec", 1000000}, {"s", 1000000000}, {"sec", 1000000000}, {"m", 60000000000},
      {"min", 60000000000}, {"h", 3600000000000}, {"hour", 3600000000000},
      {"d", 86400000000000}, {"day", 86400000000000}};
  for (auto [unit, factor] : units) {
    if (suffix == unit) return scale(number, factor, out) && *out > 0;
  }
  return false;
}

bool parse_keyword(const std::string& name, const std::string& text) {
  if (name == "bufpolicy") return text == "fill" || text == "switch" || text == "ring";
  if (name == "bufresize") return text == "auto" || text == "manual";
  return false;
}

}  // namespace

int64_t Options::number(const std::string& name, int64_t fallback) const {
  auto it = values.find(name);
  return it == values.end() ? fallback : it->second.number;
}

bool parse_option(const std::string& name, const std::optional<std::string>& value,
                  OptionValue* out, std::string* error) {
  const OptionSpec* spec = find_option(name);
  if (!spec) {
    *error = "unrecognized option: " + name;
    return false;
  }
  out->kind = spec->kind;
  out->text = value.value_or("");
  if (spec->kind == OptionKind::Flag) {
    out->number = 1;
    return true;
  }
  if (!value || value->empty()) {
    *error = "option " + name + " requires a value";
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
    case OptionKind::Size: ok = parse_size(*value, &out->number); break;
    case OptionKind::Rate: ok = parse_rate(*value, &out->number); break;
    case OptionKind::Keyword: ok = parse_keyword(name, *value); break;
    case OptionKind::Flag: break;
  }
  if (!ok) *error = "invalid value for option " + name + ": " + *value;
  return ok;
}

}  // namespace dsched::lang
