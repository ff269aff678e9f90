#include "report_tables.h"

#include <algorithm>
#include <functional>
#include <set>
#include <vector>

#include "format.h"

namespace dsched::ctprof {
namespace {

struct Spec {
  const char* header;
  StateUnit unit;
  std::function<StateValue(const CgroupStats&)> get;
};

std::string heading(Section s, const std::string& suffix = "") {
  return "\n## " + std::string(section_heading(s)) + suffix + "\n";
}

template <typename Map>
std::set<std::string> union_keys(const Map& a, const Map* b) {
  std::set<std::string> keys;
  for (const auto& [k, v] : a) keys.insert(k);
  if (b)
    for (const auto& [k, v] : *b) keys.insert(k);
  return keys;
}

template <typename Map>
const typename Map::mapped_type* lookup(const Map* m, const std::string& key) {
  if (!m) return nullptr;
  auto it = m->find(key);
  return it == m->end() ? nullptr : &it->second;
}

// One cell: a change (compare) or a value (show).
std::string cell(const StateValue& a, const StateValue* b, StateUnit unit) {
  return b ? format_state_change(a, *b, unit) : format_state(a, unit);
}

Table new_table(std::vector<std::string> header) {
  Table t;
  t.right_aligned.assign(header.size(), false);
  t.header = std::move(header);
  return t;
}

// One row per cgroup, one column per spec; `keep` picks the rows worth showing.
std::string wide_table(Section section, const std::vector<Spec>& specs, const CgroupTable& a,
                       const CgroupTable* b, const std::function<bool(const CgroupStats&)>& keep) {
  std::vector<std::string> header{"cgroup"};
  for (const auto& s : specs) header.emplace_back(s.header);
  Table t = new_table(std::move(header));
  const CgroupStats none;
  for (const auto& key : union_keys(a, b)) {
    const CgroupStats* sa = lookup(&a, key);
    const CgroupStats* sb = lookup(b, key);
    if (!(sa && keep(*sa)) && !(sb && keep(*sb))) continue;
    std::vector<std::string> row{key};
    for (const auto& s : specs) {
      const StateValue va = s.get(sa ? *sa : none);
      const StateValue vb = s.get(sb ? *sb : none);
      row.push_back(cell(va, b ? &vb : nullptr, s.unit));
    }
    t.rows.push_back(std::move(row));
  }
  return t.rows.empty() ? std::string() : heading(section) + t.render();
}

using KeyValues = std::map<std::string, std::uint64_t> CgroupStats::*;

// One row per (cgroup, key) of a key/value file; compare keeps the rows that changed.
std::string long_table(Section section, const char* key_header, const char* value_header,
                       KeyValues member, const CgroupTable& a, const CgroupTable* b) {
  Table t = new_table({"cgroup", key_header, value_header});
  for (const auto& group : union_keys(a, b)) {
    const CgroupStats* sa = lookup(&a, group);
    const CgroupStats* sb = lookup(b, group);
    const std::map<std::string, std::uint64_t> empty;
    const auto& ma = sa ? sa->*member : empty;
    const auto& mb = sb ? sb->*member : empty;
    for (const auto& k : union_keys(ma, b ? &mb : nullptr)) {
      const StateValue va = StateValue::of(ma.count(k) ? std::optional(ma.at(k)) : std::nullopt);
      const StateValue vb = StateValue::of(mb.count(k) ? std::optional(mb.at(k)) : std::nullopt);
      if (b && va.kind == vb.kind && va.number == vb.number) continue;
      t.rows.push_back({group, k, cell(va, b ? &vb : nullptr, StateUnit::Count)});
    }
  }
  return t.rows.empty() ? std::string() : heading(section) + t.render();
}

bool has_data(const PsiResource& r) {
  return r.present && (r.some != PsiLine{} || r.full != PsiLine{});
}

// The rows "some" and "full" of one pressure resource.
void pressure_rows(Table& t, const std::vector<std::string>& lead, const PsiResource& a,
                   const PsiResource* b) {
  for (bool full : {false, true}) {
    const PsiLine& la = full ? a.full : a.some;
    const PsiLine* lb = b ? (full ? &b->full : &b->some) : nullptr;
    auto value = [](const PsiResource& r, std::uint64_t v) {
      return r.present ? StateValue::of(v) : StateValue{};
    };
    std::vector<std::string> row = lead;
    row.push_back(full ? "full" : "some");
    const std::uint64_t av[] = {la.avg10, la.avg60, la.avg300, la.total_usec};
    const std::uint64_t bv[] = {lb ? lb->avg10 : 0, lb ? lb->avg60 : 0, lb ? lb->avg300 : 0,
                                lb ? lb->total_usec : 0};
    for (std::size_t i = 0; i < 4; ++i) {
      const StateUnit unit = i < 3 ? StateUnit::CentiPercent : StateUnit::Usec;
      const StateValue vb = b ? value(*b, bv[i]) : StateValue{};
      row.push_back(cell(value(a, av[i]), b ? &vb : nullptr, unit));
    }
    t.rows.push_back(std::move(row));
  }
}

// cpu.max as "quota/period" ("max/100000" without a quota).
StateValue cpu_max(const std::optional<std::uint64_t>& quota,
                   const std::optional<std::uint64_t>& period) {
  if (!quota) return {};
  const std::string q = *quota == kUnlimited ? "max" : std::to_string(*quota);
  return StateValue::of_text(q + "/" + (period ? std::to_string(*period) : "-"));
}

// A column showing one optional member of CgroupStats.
Spec field(const char* header, StateUnit unit, std::optional<std::uint64_t> CgroupStats::*member) {
  return {header, unit, [member](const CgroupStats& s) { return StateValue::of(s.*member); }};
}

}  // namespace

std::string render_cgroup_tables(const CgroupTable& a, const CgroupTable* b,
                                 const ReportOptions& o) {
  std::string out;
  if (o.shows(Section::CgroupStats)) {
    const std::vector<Spec> specs = {
        field("cpu_usage_usec", StateUnit::Usec, &CgroupStats::usage_usec),
        field("nr_throttled", StateUnit::Count, &CgroupStats::nr_throttled),
        field("throttled_usec", StateUnit::Usec, &CgroupStats::throttled_usec),
        field("memory_current", StateUnit::Bytes, &CgroupStats::memory_current)};
    out += wide_table(Section::CgroupStats, specs, a, b, [](const CgroupStats&) { return true; });
  }
  if (o.shows(Section::CgroupLimits)) {
    const auto weight_nice = [](const CgroupStats& s) {
      return s.weight_nice
                 ? StateValue{StateValue::Number, static_cast<long double>(*s.weight_nice), {}}
                 : StateValue{};
    };
    const std::vector<Spec> specs = {
        {"cpu.max", StateUnit::Text,
         [](const CgroupStats& s) { return cpu_max(s.max_quota_us, s.max_period_us); }},
        field("cpu.weight", StateUnit::Count, &CgroupStats::weight),
        {"cpu.weight.nice", StateUnit::Signed, weight_nice},
        field("memory.max", StateUnit::BytesLimit, &CgroupStats::memory_max),
        field("memory.high", StateUnit::BytesLimit, &CgroupStats::memory_high),
        field("memory.low", StateUnit::BytesLimit, &CgroupStats::memory_low),
        field("memory.min", StateUnit::BytesLimit, &CgroupStats::memory_min),
        field("pids.current", StateUnit::Count, &CgroupStats::pids_current),
        field("pids.max", StateUnit::CountLimit, &CgroupStats::pids_max)};
    out += wide_table(Section::CgroupLimits, specs, a, b,
                      [](const CgroupStats& s) { return s.has_limits(); });
  }
  if (o.shows(Section::MemoryStat))
    out += long_table(Section::MemoryStat, "key", "value", &CgroupStats::memory_stat, a, b);
  if (o.shows(Section::MemoryEvents))
    out += long_table(Section::MemoryEvents, "event", "count", &CgroupStats::memory_events, a, b);
  if (o.shows(Section::Pressure)) {
    for (std::size_t r = 0; r < kPsiCount; ++r) {
      Table t = new_table({"cgroup", "row", "avg10", "avg60", "avg300", "total"});
      for (const auto& key : union_keys(a, b)) {
        const CgroupStats* sa = lookup(&a, key);
        const CgroupStats* sb = lookup(b, key);
        const PsiResource none;
        const PsiResource& ra = sa ? sa->psi.resource[r] : none;
        const PsiResource& rb = sb ? sb->psi.resource[r] : none;
        if (!has_data(ra) && !has_data(rb)) continue;
        pressure_rows(t, {key}, ra, b ? &rb : nullptr);
      }
      if (!t.rows.empty())
        out += heading(Section::Pressure, " / " + std::string(kPsiNames[r])) + t.render();
    }
  }
  return out;
}

std::string render_host_pressure(const Psi& a, const Psi* b, const ReportOptions& o) {
  if (!o.shows(Section::HostPressure)) return {};
  std::string out;
  for (std::size_t r = 0; r < kPsiCount; ++r) {
    const PsiResource& ra = a.resource[r];
    const PsiResource* rb = b ? &b->resource[r] : nullptr;
    if (!has_data(ra) && !(rb && has_data(*rb))) continue;
    Table t = new_table({"row", "avg10", "avg60", "avg300", "total"});
    pressure_rows(t, {}, ra, rb);
    out += heading(Section::HostPressure, " / " + std::string(kPsiNames[r])) + t.render();
  }
  return out;
}

std::string render_sched_ext(const std::optional<SchedExtState>& a,
                             const std::optional<SchedExtState>* b, const ReportOptions& o) {
  if (!o.shows(Section::SchedExt)) return {};
  // Compare shows it when it changed (or exists on one side only), show when it exists.
  if (b ? (!a && !*b) || a == *b : !a) return {};
  Table t = new_table({"attr", "value"});
  const SchedExtState none;
  const SchedExtState& sa = a ? *a : none;
  const SchedExtState* sb = b ? (*b ? &**b : &none) : nullptr;
  auto state = [](const std::optional<SchedExtState>& s) {
    return s && !s->state.empty() ? StateValue::of_text(s->state) : StateValue{};
  };
  const StateValue state_b = b ? state(*b) : StateValue{};
  t.rows.push_back({"state", cell(state(a), b ? &state_b : nullptr, StateUnit::Text)});
  const std::pair<const char*, std::optional<std::uint64_t> SchedExtState::*> counters[] = {
      {"switch_all", &SchedExtState::switch_all},
      {"nr_rejected", &SchedExtState::nr_rejected},
      {"hotplug_seq", &SchedExtState::hotplug_seq},
      {"enable_seq", &SchedExtState::enable_seq}};
  for (const auto& [name, member] : counters) {
    const StateValue vb = sb ? StateValue::of(sb->*member) : StateValue{};
    t.rows.push_back(
        {name, cell(StateValue::of(sa.*member), sb ? &vb : nullptr, StateUnit::Count)});
  }
  return heading(Section::SchedExt) + t.render();
}

SmapsTable smaps_by_process(const Snapshot& snap, bool no_thread_normalize) {
  SmapsTable out;
  for (const auto& t : snap.threads) {
    if (t.smaps_kib.empty()) continue;
    const std::string key = no_thread_normalize ? t.pcomm + "[" + std::to_string(t.tgid) + "]"
                                                : normalize_name(t.pcomm);
    auto& fields = out[key];
    for (const auto& [k, v] : t.smaps_kib) fields[k] += v;
  }
  return out;
}

std::string render_smaps(const SmapsTable& a, const SmapsTable* b, const ReportOptions& o) {
  if (!o.shows(Section::SmapsRollup)) return {};
  auto rss = [](const SmapsTable* m, const std::string& key) -> std::int64_t {
    const auto* fields = lookup(m, key);
    return fields && fields->count("Rss") ? static_cast<std::int64_t>(fields->at("Rss")) : 0;
  };
  std::vector<std::string> processes;
  for (const auto& k : union_keys(a, b)) processes.push_back(k);
  // Biggest memory movers first (show: biggest processes), then by name.
  std::stable_sort(processes.begin(), processes.end(),
                   [&](const std::string& x, const std::string& y) {
                     const auto score = [&](const std::string& k) {
                       return b ? std::abs(rss(b, k) - rss(&a, k)) : rss(&a, k);
                     };
                     const auto sx = score(x), sy = score(y);
                     if (sx != sy) return sx > sy;
                     return std::max(rss(&a, x), rss(b, x)) > std::max(rss(&a, y), rss(b, y));
                   });
  Table t = b ? new_table({"process", "key", "value", "delta", "%"})
              : new_table({"process", "key", "value"});
  for (std::size_t c = 3; c < t.right_aligned.size(); ++c) t.right_aligned[c] = true;
  if (!b) t.right_aligned[2] = true;
  for (const auto& p : processes) {
    const auto* fa = lookup(&a, p);
    const auto* fb = lookup(b, p);
    const std::map<std::string, std::uint64_t> empty;
    for (const auto& k : union_keys(fa ? *fa : empty, fb)) {
      const bool in_a = fa && fa->count(k), in_b = fb && fb->count(k);
      const long double va = in_a ? fa->at(k) * 1024.0L : 0, vb = in_b ? fb->at(k) * 1024.0L : 0;
      const std::string ca = in_a ? format_scalar(va, Unit::Bytes) : "-";
      if (!b) {
        t.rows.push_back({p, k, ca});
        continue;
      }
      if (in_a == in_b && va == vb) continue;  // compare keeps what moved
      const std::string cb = in_b ? format_scalar(vb, Unit::Bytes) : "-";
      const bool both = in_a && in_b;
      t.rows.push_back({p, k, ca + " → " + cb,
                        both ? format_scalar(vb - va, Unit::Bytes, true) : "-",
                        both && va != 0 ? format_percent((vb - va) / va * 100) : "-"});
    }
  }
  return t.rows.empty() ? std::string() : heading(Section::SmapsRollup) + t.render();
}

}  // namespace dsched::ctprof
