// Hand-built snapshots with chosen values, for aggregation and rendering tests.
#pragma once

#include <initializer_list>
#include <string>
#include <utility>

#include "snapshot.h"

namespace ctprof_test {

inline dsched::ctprof::Snapshot empty_snapshot(std::uint64_t uptime_s = 100) {
  dsched::ctprof::Snapshot s;
  s.host.uptime_ns = uptime_s * 1'000'000'000ULL;
  s.host.clock_ticks_per_s = 100;
  return s;
}

// Adds a thread with the given (metric id, value) pairs; text metrics take their text via `texts`.
inline dsched::ctprof::ThreadRecord& add_thread(
    dsched::ctprof::Snapshot& s, int tid, const std::string& comm, const std::string& pcomm,
    std::initializer_list<std::pair<std::size_t, std::uint64_t>> values,
    std::initializer_list<std::pair<std::size_t, std::string>> texts = {}) {
  dsched::ctprof::ThreadRecord t;
  t.tid = tid;
  t.tgid = tid;
  t.comm = comm;
  t.pcomm = pcomm;
  t.cgroup.assign(1, '/');  // not operator=(const char*): GCC 12 warns falsely (-Wrestrict)
  for (auto [id, v] : values) t.set(id, v);
  for (const auto& [id, text] : texts) t.set(id, s.intern(text));
  s.threads.push_back(std::move(t));
  return s.threads.back();
}

}  // namespace ctprof_test
