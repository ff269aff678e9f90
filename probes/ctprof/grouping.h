// The group key of each thread along one axis (pcomm, comm, comm-exact, cgroup), with pattern
// normalisation, --cgroup-flatten and the cgroup path normalisation applied.
#pragma once

#include <initializer_list>
#include <string>
#include <unordered_map>

#include "names.h"
#include "options.h"
#include "snapshot.h"

namespace dsched::ctprof {

class GroupKeys {
 public:
  // `axis` is not All. The snapshots given are the ones keys will be asked for: a name pattern
  // counts as shared when two threads over all of them share it, and cgroup paths are
  // normalised over all of them, so one group gets one key on both sides of a compare.
  GroupKeys(GroupBy axis, const ReportOptions& options,
            std::initializer_list<const Snapshot*> snapshots);

  GroupBy axis() const { return axis_; }
  std::string key(const ThreadRecord& t) const;
  // The key of a cgroup path of Snapshot::cgroup_stats (cgroup axis).
  std::string cgroup_key(const std::string& path) const;

 private:
  std::string_view raw_name(const ThreadRecord& t) const;
  std::string flattened(const std::string& path) const;
  GroupBy axis_;
  const ReportOptions& options_;
  std::unordered_map<std::string, std::size_t> pattern_threads_;
  CgroupNormalizer cgroups_;
};

}  // namespace dsched::ctprof
