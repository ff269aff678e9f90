// Thread-name normalisation and the grouping keys built from it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "snapshot.h"

namespace dsched::ctprof {

// Token-wise normalisation (separators . - _ / : @ + [ ] and space are kept): all digits -> {N};
// a hex run of 2+ characters holding a digit -> {H}; letters then digits -> letters{N}; digits
// then letters -> {N}letters. "kworker/2:1-mm_percpu_wq" -> "kworker/{N}:{N}-mm_percpu_wq".
std::string normalize_name(std::string_view name);

enum class GroupBy { All, Pcomm, Comm, CommExact, Cgroup };
std::optional<GroupBy> find_group_by(std::string_view name);
std::string_view group_by_name(GroupBy g);

// Decides each thread's group key. A normalised pattern is used only when at least two threads
// (over every snapshot added) share it; otherwise the thread keeps its exact name.
class GroupKeys {
 public:
  explicit GroupKeys(GroupBy mode) : mode_(mode) {}
  void add(const Snapshot& snap);
  std::string key(const ThreadRecord& t) const;

 private:
  std::string_view raw(const ThreadRecord& t) const;
  GroupBy mode_;
  std::unordered_map<std::string, std::size_t> pattern_threads_;
};

}  // namespace dsched::ctprof
