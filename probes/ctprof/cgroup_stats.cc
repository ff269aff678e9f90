#include "cgroup_stats.h"

#include <algorithm>
#include <array>

namespace dsched::ctprof {
namespace {

using Opt = std::optional<std::uint64_t>;

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return a > kUnlimited - b ? kUnlimited : a + b;
}

// A value only one member has still describes the merged group.
template <typename T, typename Fn>
void merge_value(std::optional<T>& into, const std::optional<T>& from, Fn combine) {
  if (!from) return;
  into = into ? combine(*into, *from) : *from;
}

void add(Opt& into, const Opt& from) { merge_value(into, from, saturating_add); }
void larger(Opt& into, const Opt& from) {
  merge_value(into, from, [](std::uint64_t a, std::uint64_t b) { return std::max(a, b); });
}
void smaller(Opt& into, const Opt& from) {
  merge_value(into, from, [](std::uint64_t a, std::uint64_t b) { return std::min(a, b); });
}

// memory.stat keys that are pool sizes rather than event counts: these take the larger value.
bool is_memory_stat_gauge(const std::string& key) {
  static constexpr std::array<std::string_view, 28> kGauges = {"anon",
                                                               "file",
                                                               "kernel",
                                                               "kernel_stack",
                                                               "pagetables",
                                                               "sec_pagetables",
                                                               "percpu",
                                                               "sock",
                                                               "vmalloc",
                                                               "shmem",
                                                               "zswap",
                                                               "zswapped",
                                                               "file_mapped",
                                                               "file_dirty",
                                                               "file_writeback",
                                                               "swapcached",
                                                               "anon_thp",
                                                               "file_thp",
                                                               "shmem_thp",
                                                               "inactive_anon",
                                                               "active_anon",
                                                               "inactive_file",
                                                               "active_file",
                                                               "unevictable",
                                                               "slab_reclaimable",
                                                               "slab_unreclaimable",
                                                               "slab",
                                                               "hugetlb"};
  return std::find(kGauges.begin(), kGauges.end(), key) != kGauges.end();
}

void merge_psi_line(PsiLine& into, const PsiLine& from) {
  into.avg10 = std::max(into.avg10, from.avg10);
  into.avg60 = std::max(into.avg60, from.avg60);
  into.avg300 = std::max(into.avg300, from.avg300);
  into.total_usec = saturating_add(into.total_usec, from.total_usec);
}

}  // namespace

bool Psi::any() const {
  return std::any_of(resource.begin(), resource.end(), [](const auto& r) { return r.present; });
}

bool CgroupStats::has_limits() const {
  return max_quota_us || weight || memory_max || memory_high || memory_low || memory_min ||
         pids_current || pids_max;
}

void merge_into(CgroupStats& into, const CgroupStats& from) {
  add(into.usage_usec, from.usage_usec);
  add(into.nr_throttled, from.nr_throttled);
  add(into.throttled_usec, from.throttled_usec);
  larger(into.max_quota_us, from.max_quota_us);
  larger(into.max_period_us, from.max_period_us);
  larger(into.weight, from.weight);
  merge_value(into.weight_nice, from.weight_nice,
              [](std::int64_t a, std::int64_t b) { return std::max(a, b); });
  larger(into.memory_current, from.memory_current);
  larger(into.memory_max, from.memory_max);
  larger(into.memory_high, from.memory_high);
  smaller(into.memory_low, from.memory_low);
  smaller(into.memory_min, from.memory_min);
  for (const auto& [key, v] : from.memory_stat) {
    auto [it, inserted] = into.memory_stat.try_emplace(key, v);
    if (!inserted)
      it->second =
          is_memory_stat_gauge(key) ? std::max(it->second, v) : saturating_add(it->second, v);
  }
  for (const auto& [key, v] : from.memory_events) {
    auto [it, inserted] = into.memory_events.try_emplace(key, v);
    if (!inserted) it->second = saturating_add(it->second, v);
  }
  add(into.pids_current, from.pids_current);
  larger(into.pids_max, from.pids_max);
  for (std::size_t r = 0; r < kPsiCount; ++r) {
    auto& a = into.psi.resource[r];
    const auto& b = from.psi.resource[r];
    if (!b.present) continue;
    if (!a.present) {
      a = b;
      continue;
    }
    merge_psi_line(a.some, b.some);
    merge_psi_line(a.full, b.full);
  }
}

}  // namespace dsched::ctprof
