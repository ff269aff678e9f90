#include "cgroup_source.h"

#include "file_read.h"
#include "text_parse.h"

namespace dsched::ctprof {
namespace {

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
  for_each_line(text, ' ', [&](std::string_view key, std::string_view value) {
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
  // A file holding one number (`convert`: to_int, or to_limit for files that may say "max").
  void value(const char* name, std::optional<std::uint64_t>& out,
             bool (*convert)(std::string_view, std::uint64_t&)) {
    file(name, [&](std::string_view t) {
      std::uint64_t v = 0;
      if (!convert(t, v)) return false;
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
  for_each_line(text, ' ', [&](std::string_view kind, std::string_view fields) {
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
    r.value("cpu.weight", s.weight, to_int);
    r.file("cpu.weight.nice", [&](std::string_view t) {
      std::int64_t v = 0;
      if (!to_int(t, v)) return false;
      s.weight_nice = v;
      return true;
    });
    r.value("memory.current", s.memory_current, to_int);
    r.value("memory.max", s.memory_max, to_limit);
    r.value("memory.high", s.memory_high, to_limit);
    r.value("memory.low", s.memory_low, to_limit);
    r.value("memory.min", s.memory_min, to_limit);
    r.value("pids.current", s.pids_current, to_int);
    r.value("pids.max", s.pids_max, to_limit);
  }
  r.file("memory.stat", [&](std::string_view t) { return parse_flat_keyed(t, s.memory_stat); });
  r.file("memory.events", [&](std::string_view t) { return parse_flat_keyed(t, s.memory_events); });
  s.psi = read_pressure(dir.get(), true, "cgroup", tally, buf);
  return s;
}

}  // namespace dsched::ctprof
