#include "report_metrics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "format.h"

namespace dsched::ctprof {
namespace {

constexpr Section kMetricSections[] = {Section::Primary, Section::TaskstatsDelay, Section::Derived};
constexpr const char* kArrow = " → ";

// How much a row moved, for ordering: lower tier first, then bigger magnitude, then registry order.
struct Movement {
  int tier = 3;  // 0: % change, 1: no % (zero baseline, ratio), 2: text/range changed, 3: unchanged
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
    // A ratio's delta already reads as points: no percentage of it.
    if (b.scalar != 0 && unit != Unit::Ratio) {
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

// Share of the longest-lived group, "-" when unknown.
std::string uptime_cell(std::optional<long double> alive, long double longest) {
  if (!alive || longest <= 0) return "-";
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.0Lf%%", std::min(100.0L, *alive / longest * 100));
  return buf;
}

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
  for (auto& p : pairs) p.uptime = uptime_cell(alive(p), longest);
}

std::string heading(Section s, const std::string& suffix) {
  return "## " + std::string(section_heading(s)) + suffix + "\n";
}

bool right_aligned(Column c) {
  return c == Column::Threads || c == Column::Baseline || c == Column::Candidate ||
         c == Column::Delta || c == Column::Pct || c == Column::Uptime || c == Column::Value;
}

std::string header_of(Column c, GroupBy axis) {
  switch (c) {
    case Column::Group: return std::string(group_by_name(axis));
    case Column::Arrow:
    case Column::Value: return "value";
    case Column::Uptime: return "%uptime";
    default: return std::string(column_name(c));
  }
}

Table new_table(const std::vector<Column>& columns, GroupBy axis) {
  Table t;
  for (Column c : columns) {
    t.header.push_back(header_of(c, axis));
    t.right_aligned.push_back(right_aligned(c));
  }
  return t;
}

// The cells of one row, picked by column; `arrow` is the pre-aligned "a → b" cell.
struct Cells {
  std::string group, threads, metric, base, cand, arrow, delta, pct, tags, uptime, value;
  std::vector<std::string> pick(const std::vector<Column>& columns) const {
    std::vector<std::string> out;
    for (Column c : columns) {
      switch (c) {
        case Column::Group: out.push_back(group); break;
        case Column::Threads: out.push_back(threads); break;
        case Column::Metric: out.push_back(metric); break;
        case Column::Baseline: out.push_back(base); break;
        case Column::Candidate: out.push_back(cand); break;
        case Column::Arrow: out.push_back(arrow); break;
        case Column::Delta: out.push_back(delta); break;
        case Column::Pct: out.push_back(pct); break;
        case Column::Tags: out.push_back(tags); break;
        case Column::Uptime: out.push_back(uptime); break;
        case Column::Value: out.push_back(value); break;
      }
    }
    return out;
  }
};

std::string label_of(const ComparedGroups& g, const std::string& key) {
  auto it = g.labels.find(key);
  return it == g.labels.end() ? key : it->second;
}

}  // namespace

std::string render_compare_metrics(const ComparedGroups& groups, GroupBy axis,
                                   const std::string& suffix, const ReportOptions& o) {
  std::map<std::string, Pair> by_key;
  for (const auto& [k, g] : groups.baseline) by_key[k].base = &g;
  for (const auto& [k, g] : groups.candidate) by_key[k].cand = &g;
  std::vector<Pair> all;
  for (auto& [k, p] : by_key) {
    p.key = k;
    all.push_back(std::move(p));
  }
  compute_uptime(all);
  const std::vector<Column> columns = o.resolved_columns();

  std::string out;
  for (Section s : kMetricSections) {
    const auto ids = section_metrics(s, o);
    if (ids.empty()) continue;
    std::vector<Pair> pairs = all;
    for (auto& p : pairs) {
      for (std::size_t id : ids) p.rows.push_back(compare_row(p, id));
      std::sort(p.rows.begin(), p.rows.end(),
                [](const Row& a, const Row& b) { return a.move < b.move; });
    }
    auto rank = [](const Pair& p, std::size_t id) -> RankValue {
      const auto b = rank_value(value_of(p.base, id));
      const auto c = rank_value(value_of(p.cand, id));
      if (!b || !c) return std::nullopt;
      return *c - *b;
    };
    order_groups(pairs, o, rank, [](const Pair& a, const Pair& b) {
      return a.rows.front().move < b.rows.front().move;
    });
    // The value column of the arrow layout: baselines right-aligned so the arrows line up.
    std::size_t base_width = 0;
    for (const auto& p : pairs)
      for (const auto& r : p.rows) base_width = std::max(base_width, display_width(r.base));
    Table t = new_table(columns, axis);
    for (const auto& p : pairs) {
      const std::string threads = threads_cell(p.base, p.cand);
      for (const auto& r : p.rows) {
        Cells c;
        c.group = label_of(groups, p.key);
        c.threads = threads;
        c.metric = std::string(metric(r.metric).name);
        c.base = r.base;
        c.cand = r.cand;
        c.arrow = std::string(base_width - display_width(r.base), ' ') + r.base + kArrow + r.cand;
        c.delta = r.delta;
        c.pct = r.pct;
        c.tags = gating_tags(metric(r.metric));
        c.uptime = p.uptime;
        t.rows.push_back(c.pick(columns));
      }
    }
    if (!out.empty()) out += "\n";
    out += heading(s, suffix);
    out += pairs.empty() ? "(no threads)\n" : t.render();
  }
  return out;
}

std::string render_show_metrics(const Groups& groups, GroupBy axis, const std::string& suffix,
                                const ReportOptions& o) {
  long double longest = 0;
  for (const auto& [k, g] : groups)
    if (g.alive_ns) longest = std::max(longest, *g.alive_ns);
  const std::vector<Column> columns = o.resolved_columns();
  std::string out;
  for (Section s : kMetricSections) {
    const auto ids = section_metrics(s, o);
    if (ids.empty()) continue;
    struct Item {
      std::string key;
      const Group* g;
    };
    std::vector<Item> items;
    for (const auto& [k, g] : groups) items.push_back({k, &g});
    auto rank = [](const Item& it, std::size_t id) { return rank_value(it.g->values[id]); };
    order_groups(items, o, rank, [](const Item&, const Item&) { return false; });
    Table t = new_table(columns, axis);
    for (const auto& it : items)
      for (std::size_t id : ids) {
        Cells c;
        c.group = it.key;
        c.threads = std::to_string(it.g->threads);
        c.metric = std::string(metric(id).name);
        c.value = format_value(it.g->values[id], metric(id).unit);
        c.tags = gating_tags(metric(id));
        c.uptime = uptime_cell(it.g->alive_ns, longest);
        t.rows.push_back(c.pick(columns));
      }
    if (!out.empty()) out += "\n";
    out += heading(s, suffix);
    out += items.empty() ? "(no threads)\n" : t.render();
  }
  return out;
}

}  // namespace dsched::ctprof
