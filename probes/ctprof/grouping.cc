#include "grouping.h"

#include <fnmatch.h>

namespace dsched::ctprof {

GroupKeys::GroupKeys(GroupBy axis, const ReportOptions& options,
                     std::initializer_list<const Snapshot*> snapshots)
    : axis_(axis), options_(options) {
  const bool patterns =
      (axis == GroupBy::Pcomm || axis == GroupBy::Comm) && !options.no_thread_normalize;
  for (const Snapshot* snap : snapshots) {
    for (const auto& t : snap->threads) {
      if (patterns) ++pattern_threads_[normalize_name(raw_name(t))];
      if (axis == GroupBy::Cgroup) cgroups_.add(flattened(t.cgroup));
    }
    if (axis == GroupBy::Cgroup)
      for (const auto& [path, stats] : snap->cgroup_stats) cgroups_.add(flattened(path));
  }
  cgroups_.finish();
}

std::string_view GroupKeys::raw_name(const ThreadRecord& t) const {
  return axis_ == GroupBy::Pcomm ? std::string_view(t.pcomm) : std::string_view(t.comm);
}

std::string GroupKeys::flattened(const std::string& path) const {
  // The first matching glob is the key: every path it matches lands on it.
  for (const auto& glob : options_.cgroup_flatten)
    if (fnmatch(glob.c_str(), path.c_str(), 0) == 0) return glob;
  return path;
}

std::string GroupKeys::cgroup_key(const std::string& path) const {
  const std::string flat = flattened(path);
  return options_.no_cg_normalize ? flat : cgroups_.key(flat);
}

std::string GroupKeys::key(const ThreadRecord& t) const {
  switch (axis_) {
    case GroupBy::Cgroup: return cgroup_key(t.cgroup);
    case GroupBy::CommExact: return t.comm;
    case GroupBy::Pcomm:
    case GroupBy::Comm: {
      const std::string_view raw = raw_name(t);
      if (options_.no_thread_normalize) return std::string(raw);
      std::string pattern = normalize_name(raw);
      auto it = pattern_threads_.find(pattern);
      return it != pattern_threads_.end() && it->second >= 2 ? pattern : std::string(raw);
    }
    case GroupBy::All: break;
  }
  return "all";
}

}  // namespace dsched::ctprof
