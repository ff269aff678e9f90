#include "report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "aggregate.h"
#include "format.h"

namespace dsched::ctprof {
namespace {

constexpr Section kSections[] = {Section::Primary, Section::TaskstatsDelay, Section::Derived};
constexpr const char* kArrow = " → ";

// How much a row moved, for ordering: lower tier first, then bigger magnitude, then registry order.
struct Movement {
  int tier = 3;  // 0: % change, 1: from zero, 2: text/range changed, 3: unchanged or missing
  long double magnitude = 0;
  std::size_t metric = 0;
  bool operator<(const Movement& o) const {
    if (tier != o.tier) return tier < o.tier;
    if (magnitude != o.magnitude) return magnitude > o.magnitude;
    return metric < o.metric;
  }
};

struct Row {
  std::size_t metric;
  std::string base, cand, delta, pct;
  Movement move;
};

// One group key matched across the two snapshots; either side may be missing.
struct Pair {
  std::string key;
  const Group* base = nullptr;
  const Group* cand = nullptr;
  std::string uptime = "-";
  std::vector<Row> rows;  // of the section being rendered
};

const AggValue& value_of(const Group* g, std::size_t id) {
  static const AggValue none;
  return g ? g->values[id] : none;
}

Row compare_row(const Pair& p, std::size_t id) {
  const Unit unit = metric(id).unit;
  const AggValue& b = value_of(p.base, id);
  const AggValue& c = value_of(p.cand, id);
  Row r{id, format_value(b, unit), format_value(c, unit), "-", "-", {3, 0, id}};
  if (b.kind == AggValue::Scalar && c.kind == AggValue::Scalar) {
    const long double delta = c.scalar - b.scalar;
    r.delta = format_scalar(delta, unit, true);
    if (b.scalar != 0) {
      const long double pct = delta / std::fabs(b.scalar) * 100;
      r.pct = format_percent(pct);
      if (delta != 0) r.move = {0, std::fabs(pct), id};
    } else if (delta != 0) {
      r.move = {1, std::fabs(delta), id};
    }
  } else if (b.kind != AggValue::None && c.kind != AggValue::None && !(b == c)) {
    r.move = {2, 0, id};
  }
  return r;
}

std::string threads_cell(const Group* b, const Group* c) {
  auto n = [](const Group* g) { return g ? std::to_string(g->threads) : std::string("-"); };
  if (b && c && b->threads == c->threads) return n(b);
  return n(b) + "→" + n(c);
}

// The value a group is ranked by for one --sort-by key; nullopt sorts last.
using RankValue = std::optional<long double>;

bool rank_before(const std::vector<RankValue>& a, const std::vector<RankValue>& b,
                 const std::vector<SortKey>& keys) {
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (a[i].has_value() != b[i].has_value()) return a[i].has_value();
    if (!a[i] || *a[i] == *b[i]) continue;
    return keys[i].descending ? *a[i] > *b[i] : *a[i] < *b[i];
  }
  return false;
}

// Orders items (each with .key) by --sort-by when given, else by `fallback_less`; ties by key.
template <typename T, typename RankFn, typename Less>
void order_groups(std::vector<T>& items, const ReportOptions& o, RankFn rank, Less fallback_less) {
  if (o.sort_by.empty()) {
    std::stable_sort(items.begin(), items.end(), [&](const T& a, const T& b) {
      if (fallback_less(a, b)) return true;
      if (fallback_less(b, a)) return false;
      return a.key < b.key;
    });
    return;
  }
  std::map<std::string, std::vector<RankValue>> ranks;
  for (const auto& it : items) {
    auto& r = ranks[it.key];
    for (const auto& k : o.sort_by) r.push_back(rank(it, k.metric));
  }
  std::stable_sort(items.begin(), items.end(), [&](const T& a, const T& b) {
    const auto& ra = ranks[a.key];
    const auto& rb = ranks[b.key];
    if (rank_before(ra, rb, o.sort_by)) return true;
    if (rank_before(rb, ra, o.sort_by)) return false;
    return a.key < b.key;
  });
}

std::vector<std::size_t> section_metrics(Section s, const ReportOptions& o) {
  std::vector<std::size_t> ids;
  for (std::size_t id = 0; id < kMetricCount; ++id)
    if (metric(id).section == s && o.shows(id)) ids.push_back(id);
  return ids;
}

// The value cell of the arrow layout: baselines right-aligned so the arrows line up.
void arrow_cells(const std::vector<Row*>& rows, std::vector<std::string>& cells) {
  std::size_t width = 0;
  for (const Row* r : rows) width = std::max(width, display_width(r->base));
  for (const Row* r : rows)
    cells.push_back(std::string(width - display_width(r->base), ' ') + r->base + kArrow + r->cand);
}

std::string heading(Section s) { return "## " + std::string(section_heading(s)) + "\n"; }

void compute_uptime(std::vector<Pair>& pairs) {
  auto alive = [](const Pair& p) {
    return p.cand && p.cand->alive_ns ? p.cand->alive_ns : p.base ? p.base->alive_ns : std::nullopt;
  };
  // Relative to the longest-lived group present in both snapshots (any group if none matched).
  long double longest = 0;
  for (bool matched_only : {true, false}) {
    for (const auto& p : pairs)
      if ((!matched_only || (p.base && p.cand)) && alive(p)) longest = std::max(longest, *alive(p));
    if (longest > 0) break;
  }
  if (longest <= 0) return;
  for (auto& p : pairs)
    if (auto a = alive(p)) {
      char buf[16];
      std::snprintf(buf, sizeof buf, "%.0Lf%%", std::min(100.0L, *a / longest * 100));
      p.uptime = buf;
    }
}

}  // namespace

std::string render_compare(const Snapshot& baseline, const Snapshot& candidate,
                           const ReportOptions& o) {
  GroupKeys keys(o.group_by);
  keys.add(baseline);
  keys.add(candidate);
  const auto base_groups = group_threads(baseline, keys);
  const auto cand_groups = group_threads(candidate, keys);
  std::map<std::string, Pair> by_key;
  for (const auto& [k, g] : base_groups) by_key[k].base = &g;
  for (const auto& [k, g] : cand_groups) by_key[k].cand = &g;
  std::vector<Pair> all;
  for (auto& [k, p] : by_key) {
    p.key = k;
    all.push_back(std::move(p));
  }
  compute_uptime(all);

  std::string out;
  for (Section s : kSections) {
    const auto ids = section_metrics(s, o);
    if (ids.empty()) continue;
    std::vector<Pair> pairs = all;
    for (auto& p : pairs) {
      for (std::size_t id : ids) p.rows.push_back(compare_row(p, id));
      std::sort(p.rows.begin(), p.rows.end(),
                [](const Row& a, const Row& b) { return a.move < b.move; });
    }
    auto rank = [](const Pair& p, std::size_t id) -> RankValue {
      const AggValue& b = value_of(p.base, id);
      const AggValue& c = value_of(p.cand, id);
      if (b.kind != AggValue::Scalar || c.kind != AggValue::Scalar) return std::nullopt;
      return c.scalar - b.scalar;
    };
    order_groups(pairs, o, rank, [](const Pair& a, const Pair& b) {
      return a.rows.front().move < b.rows.front().move;
    });
    if (o.limit && pairs.size() > *o.limit) pairs.resize(*o.limit);

    Table t;
    const std::string group_col(group_by_name(o.group_by));
    if (o.full_layout) {
      t.header = {group_col, "threads", "metric", "baseline", "candidate", "delta", "%", "%uptime"};
      t.right_aligned = {false, true, false, true, true, true, true, true};
    } else {
      t.header = {group_col, "threads", "metric", "value", "delta", "%", "%uptime"};
      t.right_aligned = {false, true, false, false, true, true, true};
    }
    std::vector<Row*> rows;
    for (auto& p : pairs)
      for (auto& r : p.rows) rows.push_back(&r);
    std::vector<std::string> arrows;
    if (!o.full_layout) arrow_cells(rows, arrows);
    std::size_t i = 0;
    for (auto& p : pairs) {
      const std::string threads = threads_cell(p.base, p.cand);
      for (auto& r : p.rows) {
        const std::string name(metric(r.metric).name);
        if (o.full_layout)
          t.rows.push_back({p.key, threads, name, r.base, r.cand, r.delta, r.pct, p.uptime});
        else
          t.rows.push_back({p.key, threads, name, arrows[i], r.delta, r.pct, p.uptime});
        ++i;
      }
    }
    if (!out.empty()) out += "\n";
    out += heading(s);
    out += pairs.empty() ? "(no threads)\n" : t.render();
  }
  return out;
}

std::string render_show(const Snapshot& snap, const ReportOptions& o) {
  GroupKeys keys(o.group_by);
  keys.add(snap);
  const auto groups = group_threads(snap, keys);
  std::string out;
  for (Section s : kSections) {
    const auto ids = section_metrics(s, o);
    if (ids.empty()) continue;
    struct Item {
      std::string key;
      const Group* g;
    };
    std::vector<Item> items;
    for (const auto& [k, g] : groups) items.push_back({k, &g});
    auto rank = [](const Item& it, std::size_t id) -> RankValue {
      const AggValue& v = it.g->values[id];
      if (v.kind != AggValue::Scalar) return std::nullopt;
      return v.scalar;
    };
    order_groups(items, o, rank, [](const Item&, const Item&) { return false; });
    if (o.limit && items.size() > *o.limit) items.resize(*o.limit);
    Table t;
    t.header = {std::string(group_by_name(o.group_by)), "threads", "metric", "value"};
    t.right_aligned = {false, true, false, true};
    for (const auto& it : items)
      for (std::size_t id : ids)
        t.rows.push_back({it.key, std::to_string(it.g->threads), std::string(metric(id).name),
                          format_value(it.g->values[id], metric(id).unit)});
    if (!out.empty()) out += "\n";
    out += heading(s);
    out += items.empty() ? "(no threads)\n" : t.render();
  }
  return out;
}

std::string render_metric_list() {
  Table t;
  t.header = {"metric", "section", "unit", "aggregation", "source"};
  t.right_aligned = {false, false, false, false, false};
  for (std::size_t id = 0; id < kMetricCount; ++id) {
    const auto& d = metric(id);
    t.rows.push_back({std::string(d.name), std::string(section_name(d.section)),
                      std::string(unit_name(d.unit)), std::string(agg_name(d.agg)),
                      std::string(d.source)});
  }
  return t.render();
}

}  // namespace dsched::ctprof
