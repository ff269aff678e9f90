#include "snapshot.h"

namespace dsched::ctprof {

std::uint64_t ParseTally::read_failures() const {
  std::uint64_t n = 0;
  for (auto f : failures_by_file) n += f;
  return n;
}

std::string ParseTally::dominant() const {
  std::size_t best = kProcFileCount;
  for (std::size_t f = 0; f < kProcFileCount; ++f)
    if (failures_by_file[f] > 0 &&
        (best == kProcFileCount || failures_by_file[f] > failures_by_file[best]))
      best = f;
  return best == kProcFileCount ? std::string() : std::string(kProcFileNames[best]);
}

std::uint64_t SourceTally::total() const {
  std::uint64_t n = 0;
  for (const auto& [source, count] : failures) n += count;
  return n;
}

std::string JemallocTally::dominant() const {
  const std::string* best = nullptr;
  std::uint64_t best_count = 0;
  for (const auto& [tag, count] : failures_by_tag)
    if (count > best_count) {  // map order: ties go to the alphabetically first tag
      best = &tag;
      best_count = count;
    }
  return best ? *best : std::string();
}

bool JemallocTally::privilege_dominant() const {
  std::uint64_t ptrace = 0;
  for (const auto& [tag, count] : failures_by_tag)
    if (tag == "ptrace-seize" || tag == "ptrace-interrupt") ptrace += count;
  return failed > 0 && ptrace * 2 >= failed;
}

std::uint32_t Snapshot::intern(std::string_view text) {
  if (auto it = string_index_.find(text); it != string_index_.end()) return it->second;
  const auto index = static_cast<std::uint32_t>(strings.size());
  string_index_.emplace(std::string(text), index);
  strings.emplace_back(text);
  return index;
}

}  // namespace dsched::ctprof
