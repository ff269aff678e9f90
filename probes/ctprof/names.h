// Thread-name normalisation and the grouping keys built from it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace dsched::ctprof {

// Token-wise normalisation (separators . - _ / : @ + [ ] and space are kept): all digits -> {N};
// a hex run of 2+ characters holding a digit -> {H}; letters then digits -> letters{N}; digits
// then letters -> {N}letters. "kworker/2:1-mm_percpu_wq" -> "kworker/{N}:{N}-mm_percpu_wq".
std::string normalize_name(std::string_view name);

enum class GroupBy { All, Pcomm, Comm, CommExact, Cgroup };
std::optional<GroupBy> find_group_by(std::string_view name);
std::string_view group_by_name(GroupBy g);

// Cgroup path normalisation, applied to the paths of both snapshots together so the same key
// lands on both sides: (1) a systemd template instance without '.', '_' or '-' becomes {I}
// ("user@1000.service" -> "user@{I}.service"); (2) tokens are normalised as above; (3) within a
// group of paths sharing one normalised form, a token position whose value is the same in every
// member is put back literally.
class CgroupNormalizer {
 public:
  void add(const std::string& path);
  // Key of a path added before; the path itself when it was never added.
  std::string key(const std::string& path) const;
  void finish();

 private:
  std::unordered_map<std::string, std::string> key_of_;
  bool finished_ = false;
};

}  // namespace dsched::ctprof
