// Cgroup-rename "fudging" (compare --group-by all): a cgroup present only in the baseline and
// one present only in the candidate are the same workload under a new name when their thread
// populations match. Thread type = (process name pattern, thread name pattern); a candidate
// cgroup with at least 10 types joins the baseline cgroup sharing at least 10 of them with the
// highest Jaccard similarity, when that is 0.90 or more (several candidates may join one
// baseline). Children then follow: below the renamed parts (the paths minus their common
// trailing segments), one-sided cgroups with the same relative path are joined too.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "grouping.h"
#include "snapshot.h"

namespace dsched::ctprof {

struct FudgedPair {
  std::string baseline, candidate;  // cgroup keys
  std::size_t overlap = 0;          // thread types in both
  double jaccard = 0;
  std::vector<std::string> baseline_only, candidate_only;  // "pcomm:comm" residuals
  std::size_t cascaded_children = 0;
  std::string baseline_root, candidate_root;  // where the renamed subtree starts
};

struct Fudge {
  std::map<std::string, std::string> candidate_to_baseline;  // joined keys (pairs and children)
  std::vector<FudgedPair> pairs;
};

inline constexpr std::size_t kFudgeMinTypes = 10;
inline constexpr double kFudgeMinJaccard = 0.90;

// `keys` is the cgroup axis over both snapshots.
Fudge fudge_cgroups(const Snapshot& baseline, const Snapshot& candidate, const GroupKeys& keys);

}  // namespace dsched::ctprof
