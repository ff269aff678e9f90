#include "cgroup_source.h"

#include <charconv>

#include "file_read.h"

namespace dsched::ctprof {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n'))
    s.remove_suffix(1);
  return s;
}

template <typename T>
bool to_int(std::string_view s, T& out) {
  s = trim(s);
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return !s.empty() && ec == std::errc() && p == s.data() + s.size();
}

// A number or "max" (kUnlimited).
bool to_limit(std::string_view s, std::uint64_t& out) {
  if (trim(s) == "max") {
    out = kUnlimited;
    return true;
  }
  return to_int(s, out);
}

// "12.34" -> 1234 hundredths.
bool to_centi(std::string_view s, std::uint32_t& out) {
  const auto dot = s.find('.');
  std::uint32_t whole = 0, frac = 0;
  if (dot == std::string_view::npos || s.size() - dot - 1 != 2) return false;
  if (!to_int(s.substr(0, dot), whole) || !to_int(s.substr(dot + 1), frac)) return false;
  out = whole * 100 + frac;
  return true;
}

// Calls fn(first_word, rest) for each non-empty line.
template <typename Fn>
void for_each_line(std::string_view text, Fn&& fn) {
  while (!text.empty()) {
    const auto nl = text.find('\n');
    const auto line = trim(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (line.empty()) continue;
    const auto sp = line.find(' ');
    fn(line.substr(0, sp), sp == std::string_view::npos ? std::string_view() : line.substr(sp + 1));
  }
}

bool parse_psi_line(std::string_view fields, PsiLine& out) {
  unsigned found = 0;
  bool ok = true;
  while (!fields.empty()) {
    const auto sp = fields.find(' ');
    const auto item = fields.substr(0, sp);
    fields = sp == std::string_view::npos ? std::string_view() : trim(fields.substr(sp + 1));
    const auto eq = item.find('=');
    if (eq == std::string_view::npos) return false;
    const auto key = item.substr(0, eq), value = item.substr(eq + 1);
    if (key == "avg10")
      ok &= to_centi(value, out.avg10);
    else if (key == "avg60")
      ok &= to_centi(value, out.avg60);
    else if (key == "avg300")
      ok &= to_centi(value, out.avg300);
    else if (key == "total")
      ok &= to_int(value, out.total_usec);
    else
      continue;
    ++found;
  }
  return ok && found == 4;
}

// "key value" lines into a map.
bool parse_flat_keyed(std::string_view text, std::map<std::string, std::uint64_t>& out) {
  bool ok = true;
  for_each_line(text, [&](std::string_view key, std::string_view value) {
    std::uint64_t v = 0;
    if (to_int(value, v))
      out[std::string(key)] = v;
    else
      ok = false;
  });
  return ok;
}

// Reads one file of a cgroup and hands its text to `parse`; counts it when either fails.
class CgroupReader {
 public:
  CgroupReader(int dir, SourceTally& tally, std::string& buf)
      : dir_(dir), tally_(tally), buf_(buf) {}

  template <typename Parse>
  void file(const char* name, Parse&& parse) {
    if (read_at(dir_, name, buf_) != 0 || !parse(std::string_view(buf_)))
      ++tally_.failures[std::string("cgroup ") + name];
  }
  void number(const char* name, std::optional<std::uint64_t>& out) {
    file(name, [&](std::string_view t) {
      std::uint64_t v = 0;
      if (!to_int(t, v)) return false;
      out = v;
      return true;
    });
  }
  void limit(const char* name, std::optional<std::uint64_t>& out) {
    file(name, [&](std::string_view t) {
      std::uint64_t v = 0;
      if (!to_limit(t, v)) return false;
      out = v;
      return true;
    });
  }

 private:
  int dir_;
  SourceTally& tally_;
  std::string& buf_;
};

}  // namespace

bool parse_pressure(std::string_view text, PsiResource& out) {
  bool some = false, ok = true;
  for_each_line(text, [&](std::string_view kind, std::string_view fields) {
    if (kind == "some")
      some = parse_psi_line(fields, out.some);
    else if (kind == "full")
      ok &= parse_psi_line(fields, out.full);
    else
      ok = false;
  });
  out.present = some && ok;
  return out.present;
}

Psi read_pressure(int dir, bool cgroup_layout, const std::string& source, SourceTally& tally,
                  std::string& buf) {
  Psi psi;
  for (std::size_t r = 0; r < kPsiCount; ++r) {
    const std::string name = cgroup_layout ? std::string(kPsiNames[r]) + ".pressure"
                                           : "pressure/" + std::string(kPsiNames[r]);
    if (read_at(dir, name.c_str(), buf) != 0 || !parse_pressure(buf, psi.resource[r]))
      ++tally.failures[source + " " + name];
  }
  return psi;
}

CgroupStats read_cgroup(int root, const std::string& path, SourceTally& tally, std::string& buf) {
  CgroupStats s;
  ++tally.cgroups_read;
  const std::string rel = path.size() > 1 ? path.substr(1) : ".";
  Fd dir = open_dir(root, rel.c_str(), /*path_only=*/true);
  if (!dir.ok()) {
    ++tally.failures["cgroup directory"];
    return s;
  }
  CgroupReader r(dir.get(), tally, buf);
  r.file("cpu.stat", [&](std::string_view t) {
    std::map<std::string, std::uint64_t> kv;
    if (!parse_flat_keyed(t, kv) || !kv.count("usage_usec")) return false;
    s.usage_usec = kv["usage_usec"];
    // nr_throttled and throttled_usec appear only with the cpu controller enabled.
    if (kv.count("nr_throttled")) s.nr_throttled = kv["nr_throttled"];
    if (kv.count("throttled_usec")) s.throttled_usec = kv["throttled_usec"];
    return true;
  });
  if (path != "/") {
    r.file("cpu.max", [&](std::string_view t) {
      t = trim(t);
      const auto sp = t.find(' ');
      std::uint64_t quota = 0, period = 0;
      if (sp == std::string_view::npos || !to_limit(t.substr(0, sp), quota) ||
          !to_int(t.substr(sp + 1), period))
        return false;
      s.max_quota_us = quota;
      s.max_period_us = period;
      return true;
    });
    r.number("cpu.weight", s.weight);
    r.file("cpu.weight.nice", [&](std::string_view t) {
      std::int64_t v = 0;
      if (!to_int(t, v)) return false;
      s.weight_nice = v;
      return true;
    });
    r.number("memory.current", s.memory_current);
    r.limit("memory.max", s.memory_max);
    r.limit("memory.high", s.memory_high);
    r.limit("memory.low", s.memory_low);
    r.limit("memory.min", s.memory_min);
    r.number("pids.current", s.pids_current);
    r.limit("pids.max", s.pids_max);
  }
  r.file("memory.stat", [&](std::string_view t) { return parse_flat_keyed(t, s.memory_stat); });
  r.file("memory.events", [&](std::string_view t) { return parse_flat_keyed(t, s.memory_events); });
  s.psi = read_pressure(dir.get(), true, "cgroup", tally, buf);
  return s;
}

}  // namespace dsched::ctprof
