#include "report.h"

#include <functional>
#include <vector>

#include "format.h"
#include "fudge.h"
#include "grouping.h"
#include "report_metrics.h"
#include "report_tables.h"

namespace dsched::ctprof {
namespace {

std::vector<GroupBy> axes(const ReportOptions& o) {
  if (o.group_by == GroupBy::All) return {GroupBy::Cgroup, GroupBy::Pcomm, GroupBy::Comm};
  return {o.group_by};
}

std::string heading_suffix(const ReportOptions& o, GroupBy axis) {
  return o.group_by == GroupBy::All ? " (by " + std::string(group_by_name(axis)) + ")" : "";
}

bool any_cgroup_section(const ReportOptions& o) {
  for (Section s : kAllSections)
    if (is_cgroup_section(s) && o.shows(s)) return true;
  return false;
}

bool any_metric_section(const ReportOptions& o) {
  for (Section s : kAllSections)
    if (is_metric_section(s) && o.shows(s)) return true;
  return false;
}

using PathKey = std::function<std::string(const std::string&)>;

CgroupTable cgroup_table(const Snapshot& snap, const PathKey& key_of) {
  CgroupTable out;
  for (const auto& [path, stats] : snap.cgroup_stats) merge_into(out[key_of(path)], stats);
  return out;
}

// "N group(s) only in baseline (FILE):" and the keys.
std::string unmatched(const Groups& mine, const Groups& theirs, const char* side,
                      const std::string& file) {
  std::vector<std::string> keys;
  for (const auto& [k, g] : mine)
    if (!theirs.count(k)) keys.push_back(k);
  if (keys.empty()) return {};
  std::string out =
      "\n" + std::to_string(keys.size()) + " group(s) only in " + side + " (" + file + "):\n";
  for (const auto& k : keys) out += "  " + k + "\n";
  return out;
}

std::string leaf(const std::string& path) { return path.substr(path.rfind('/') + 1); }

// Labels of the baseline cgroups that candidate cgroups were joined to.
std::map<std::string, std::string> fudge_labels(const Fudge& fudge) {
  std::map<std::string, std::string> leaves;
  for (const auto& [c, b] : fudge.candidate_to_baseline)
    leaves[b] += (leaves[b].empty() ? "" : ",") + leaf(c);
  std::map<std::string, std::string> labels;
  for (const auto& [b, l] : leaves) labels[b] = "[fudged: " + l + "] " + b;
  return labels;
}

std::string fudge_report(const std::vector<FudgedPair>& pairs) {
  if (pairs.empty()) return {};
  std::string out = "\n## Fudged cgroup matches (" + std::to_string(pairs.size()) + " pair(s))\n";
  for (const auto& p : pairs) {
    out += "\n  baseline: " + p.baseline + "\n  candidate: " + p.candidate + "\n";
    if (p.baseline_root != p.baseline || p.candidate_root != p.candidate)
      out +=
          "  cascade roots: baseline=" + p.baseline_root + " candidate=" + p.candidate_root + "\n";
    char jaccard[32];
    std::snprintf(jaccard, sizeof jaccard, "%.1f%%", p.jaccard * 100);
    out += "  overlap: " + std::to_string(p.overlap) + " thread types, Jaccard: " + jaccard +
           ", cascaded children: " + std::to_string(p.cascaded_children) + "\n";
    auto list = [&](const char* what, const std::vector<std::string>& types) {
      if (types.empty()) return;
      out += std::string("  residual (") + what + " only): ";
      for (std::size_t i = 0; i < types.size(); ++i) out += (i ? ", " : "") + types[i];
      out += "\n";
    };
    list("baseline", p.baseline_only);
    list("candidate", p.candidate_only);
  }
  return out;
}

std::string compare_block(const Snapshot& a, const Snapshot& b, const ReportOptions& o,
                          GroupBy axis, const std::string& a_name, const std::string& b_name,
                          std::vector<FudgedPair>& fudged) {
  const GroupKeys keys(axis, o, {&a, &b});
  // Renamed cgroups are joined only in the cgroup block of --group-by all.
  Fudge fudge;
  if (o.group_by == GroupBy::All && axis == GroupBy::Cgroup) fudge = fudge_cgroups(a, b, keys);
  const auto joined = [&](const std::string& key) {
    auto it = fudge.candidate_to_baseline.find(key);
    return it == fudge.candidate_to_baseline.end() ? key : it->second;
  };
  ComparedGroups groups;
  groups.baseline = group_threads(a, [&](const ThreadRecord& t) { return keys.key(t); });
  groups.candidate = group_threads(b, [&](const ThreadRecord& t) { return joined(keys.key(t)); });
  groups.labels = fudge_labels(fudge);
  std::string out;
  if (any_metric_section(o))
    out += render_compare_metrics(groups, axis, heading_suffix(o, axis), o);
  if (axis == GroupBy::Cgroup && any_cgroup_section(o)) {
    const CgroupTable ta =
        cgroup_table(a, [&](const std::string& p) { return keys.cgroup_key(p); });
    const CgroupTable tb =
        cgroup_table(b, [&](const std::string& p) { return joined(keys.cgroup_key(p)); });
    out += render_cgroup_tables(ta, &tb, o);
  }
  out += unmatched(groups.baseline, groups.candidate, "baseline", a_name);
  out += unmatched(groups.candidate, groups.baseline, "candidate", b_name);
  fudged.insert(fudged.end(), fudge.pairs.begin(), fudge.pairs.end());
  return out;
}

std::string show_block(const Snapshot& snap, const ReportOptions& o, GroupBy axis) {
  const GroupKeys keys(axis, o, {&snap});
  std::string out;
  if (any_metric_section(o))
    out +=
        render_show_metrics(group_threads(snap, [&](const ThreadRecord& t) { return keys.key(t); }),
                            axis, heading_suffix(o, axis), o);
  if (axis == GroupBy::Cgroup && any_cgroup_section(o))
    out += render_cgroup_tables(
        cgroup_table(snap, [&](const std::string& p) { return keys.cgroup_key(p); }), nullptr, o);
  return out;
}

// Blocks are separated by a blank line; sections inside start with their own.
void append_block(std::string& out, const std::string& block) {
  if (block.empty()) return;
  if (!out.empty() && !block.starts_with("\n")) out += "\n";
  out += block;
}

}  // namespace

std::string render_compare(const Snapshot& a, const Snapshot& b, const ReportOptions& o,
                           const std::string& a_name, const std::string& b_name) {
  std::string out;
  std::vector<FudgedPair> fudged;
  for (GroupBy axis : axes(o))
    append_block(out, compare_block(a, b, o, axis, a_name, b_name, fudged));
  const SmapsTable sa = smaps_by_process(a, o.no_thread_normalize);
  const SmapsTable sb = smaps_by_process(b, o.no_thread_normalize);
  append_block(out, render_smaps(sa, &sb, o));
  append_block(out, render_host_pressure(a.host_psi, &b.host_psi, o));
  append_block(out, render_sched_ext(a.sched_ext, &b.sched_ext, o));
  append_block(out, fudge_report(fudged));
  return limit_sections(out, o.limit);
}

std::string render_show(const Snapshot& snap, const ReportOptions& o) {
  std::string out;
  for (GroupBy axis : axes(o)) append_block(out, show_block(snap, o, axis));
  append_block(out, render_smaps(smaps_by_process(snap, o.no_thread_normalize), nullptr, o));
  append_block(out, render_host_pressure(snap.host_psi, nullptr, o));
  append_block(out, render_sched_ext(snap.sched_ext, nullptr, o));
  return limit_sections(out, o.limit);
}

std::string render_metric_list() {
  Table t;
  t.header = {"metric", "section", "unit", "aggregation", "gating", "source"};
  t.right_aligned.assign(t.header.size(), false);
  for (std::size_t id = 0; id < kMetricCount; ++id) {
    const auto& d = metric(id);
    const std::string gating = gating_tags(d);
    t.rows.push_back({std::string(d.name), std::string(section_name(d.section)),
                      std::string(unit_name(d.unit)), std::string(agg_name(d.agg)),
                      gating.empty() ? "-" : gating, std::string(d.source)});
  }
  return t.render() +
         "\ngating: [NAME] needs a kernel built with CONFIG_NAME; [delayacct=on] needs "
         "kernel.task_delayacct=1 (or booting with delayacct);\n"
         "[jemalloc] only threads of processes linking libjemalloc; [ptrace] read by stopping the "
         "thread for a moment (PTRACE_SEIZE).\n"
         "Without what a metric needs, it reads '-' (not 0).\n";
}

}  // namespace dsched::ctprof
