#include "format.h"

#include <cmath>
#include <cstdio>

#include "cgroup_stats.h"

namespace dsched::ctprof {
namespace {

struct Scale {
  long double factor;
  const char* suffix;
};

std::string three_decimals(long double v, const char* suffix) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3Lf%s", v, suffix);
  return buf;
}

std::string integer(long double v, const char* suffix) {
  long double r = std::round(v);
  if (r == 0) r = 0;  // no "-0"
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0Lf%s", r, suffix);
  return buf;
}

// Picks the largest scale not above |v|; below the first scale the value prints as an integer.
std::string scaled(long double v, const Scale* scales, std::size_t n, const char* base) {
  const long double mag = std::fabs(v);
  if (std::round(mag) < scales[0].factor) return integer(v, base);
  std::size_t i = 0;
  while (i + 1 < n && mag >= scales[i + 1].factor) ++i;
  return three_decimals(v / scales[i].factor, scales[i].suffix);
}

}  // namespace

std::string format_scalar(long double v, Unit unit, bool signed_form) {
  static constexpr Scale counts[] = {
      {1e3L, "K"}, {1e6L, "M"}, {1e9L, "G"}, {1e12L, "T"}, {1e15L, "P"}};
  static constexpr Scale ticks[] = {{1e3L, "Kticks"}, {1e6L, "Mticks"}, {1e9L, "Gticks"}};
  static constexpr Scale ns[] = {{1e3L, "us"}, {1e6L, "ms"}, {1e9L, "s"}};
  static constexpr Scale bytes[] = {
      {1024.0L, "KiB"}, {1048576.0L, "MiB"}, {1073741824.0L, "GiB"}, {1099511627776.0L, "TiB"}};
  std::string out;
  switch (unit) {
    case Unit::Count: out = scaled(v, counts, std::size(counts), ""); break;
    case Unit::Ticks: out = scaled(v, ticks, std::size(ticks), "ticks"); break;
    case Unit::Ns: out = scaled(v, ns, std::size(ns), "ns"); break;
    case Unit::Bytes: out = scaled(v, bytes, std::size(bytes), "B"); break;
    case Unit::Ratio: out = three_decimals(v, ""); break;
    case Unit::Number:
    case Unit::Text: out = integer(v, ""); break;
  }
  // Anything that rounds to zero prints unsigned ("0.000", not "-0.000" or "+0.000").
  const bool rounds_to_zero = out.find_first_of("123456789") == std::string::npos;
  if (rounds_to_zero && out.front() == '-') out.erase(0, 1);
  if (signed_form && v > 0 && !rounds_to_zero) out.insert(0, "+");
  return out;
}

std::string format_value(const AggValue& v, Unit unit) {
  switch (v.kind) {
    case AggValue::None: return "-";
    case AggValue::Scalar: return format_scalar(v.scalar, unit);
    case AggValue::Range: return "[" + std::to_string(v.lo) + "," + std::to_string(v.hi) + "]";
    case AggValue::Text: return v.text;
  }
  return "-";
}

std::string format_percent(long double pct) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%+.1Lf%%", pct);
  const std::string out = buf;
  return out == "+0.0%" || out == "-0.0%" ? "0.0%" : out;
}

StateValue StateValue::of(std::optional<std::uint64_t> v) {
  return v ? StateValue{Number, static_cast<long double>(*v), {}} : StateValue{};
}

std::string format_state(const StateValue& v, StateUnit unit) {
  if (v.kind == StateValue::None) return "-";
  if (v.kind == StateValue::Text) return v.text;
  const bool unlimited = v.number == static_cast<long double>(kUnlimited);
  switch (unit) {
    case StateUnit::Count: return format_scalar(v.number, Unit::Count);
    case StateUnit::Usec: return format_scalar(v.number * 1000, Unit::Ns);
    case StateUnit::Bytes: return format_scalar(v.number, Unit::Bytes);
    case StateUnit::CentiPercent: {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.2Lf%%", v.number / 100);
      return buf;
    }
    case StateUnit::Signed: return format_scalar(v.number, Unit::Number);
    case StateUnit::CountLimit: return unlimited ? "max" : format_scalar(v.number, Unit::Count);
    case StateUnit::BytesLimit: return unlimited ? "max" : format_scalar(v.number, Unit::Bytes);
    case StateUnit::Text: return v.text;
  }
  return "-";
}

std::string format_state_change(const StateValue& a, const StateValue& b, StateUnit unit) {
  if (a.kind == StateValue::None && b.kind == StateValue::None) return "-";
  const std::string fa = format_state(a, unit), fb = format_state(b, unit);
  if (a.kind == StateValue::Number && b.kind == StateValue::Number && fa != "max" && fb != "max") {
    std::string delta;
    switch (unit) {
      case StateUnit::Usec:
        delta = format_scalar((b.number - a.number) * 1000, Unit::Ns, true);
        break;
      case StateUnit::Bytes:
      case StateUnit::BytesLimit:
        delta = format_scalar(b.number - a.number, Unit::Bytes, true);
        break;
      case StateUnit::CentiPercent: {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%+.2Lf", (b.number - a.number) / 100);
        delta = buf;
        break;
      }
      default: delta = format_scalar(b.number - a.number, Unit::Count, true); break;
    }
    return fa + " → " + fb + " (" + delta + ")";
  }
  return fa == fb ? fa : fa + " → " + fb;
}

std::string limit_sections(const std::string& text, std::size_t limit) {
  if (limit == 0) return text;
  std::string out;
  std::size_t kept = 0, dropped = 0;
  bool in_table = false;  // between a "## " heading and the next blank line
  auto flush = [&] {
    if (dropped > 0)
      out += "... " + std::to_string(dropped) +
             " more lines truncated (use --limit 0 for unlimited)\n";
    kept = dropped = 0;
  };
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto nl = text.find('\n', pos);
    const std::size_t end = nl == std::string::npos ? text.size() : nl + 1;
    const std::string_view line(text.data() + pos, end - pos);
    pos = end;
    if (line.starts_with("## ")) {
      flush();
      in_table = true;
    } else if (in_table && line == "\n") {
      flush();
      in_table = false;
    } else if (in_table && kept++ >= limit) {
      ++dropped;
      continue;
    }
    out += line;
  }
  flush();
  return out;
}

std::size_t display_width(const std::string& s) {
  std::size_t w = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++w;  // count every byte that starts a UTF-8 character
  return w;
}

std::string Table::render() const {
  std::vector<std::size_t> width(header.size(), 0);
  auto measure = [&](const std::vector<std::string>& row) {
    for (std::size_t c = 0; c < row.size() && c < width.size(); ++c)
      width[c] = std::max(width[c], display_width(row[c]));
  };
  measure(header);
  for (const auto& r : rows) measure(r);
  std::string out;
  auto emit = [&](const std::vector<std::string>& row) {
    std::string line;
    for (std::size_t c = 0; c < row.size() && c < width.size(); ++c) {
      const std::string pad(width[c] - display_width(row[c]), ' ');
      if (c > 0) line += "  ";
      const bool right = c < right_aligned.size() && right_aligned[c];
      line += right ? pad + row[c] : row[c] + pad;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line;
    out += '\n';
  };
  emit(header);
  for (const auto& r : rows) emit(r);
  return out;
}

}  // namespace dsched::ctprof
