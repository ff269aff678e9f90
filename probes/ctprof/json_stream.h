// Streaming parse of a snapshot's top-level JSON object: every top-level member is handed over
// as a small DOM once complete, except the elements of "threads" and the entries of
// "cgroup_stats", which are handed over one by one and then dropped. So memory holds one record
// at a time plus what the consumer keeps, however large the file.
#pragma once

#include <istream>
#include <nlohmann/json.hpp>
#include <string>

namespace dsched::ctprof {

class SnapshotConsumer {
 public:
  virtual ~SnapshotConsumer() = default;
  // A top-level member begins (before its value is parsed).
  virtual void begin(const std::string& key) { (void)key; }
  // A complete top-level member other than threads and cgroup_stats.
  virtual void member(const std::string& key, nlohmann::json&& value) = 0;
  virtual void thread(nlohmann::json&& record) = 0;
  virtual void cgroup(const std::string& path, nlohmann::json&& stats) = 0;
};

// Parses `in` into `consumer`. Throws SnapshotError naming `name` for JSON that is malformed,
// not an object at the top level, or holds a single record of more than `max_record_values`
// JSON values. Exceptions thrown by the consumer pass through.
void parse_snapshot_stream(std::istream& in, const std::string& name, SnapshotConsumer& consumer,
                           std::size_t max_record_values = 1'000'000);

}  // namespace dsched::ctprof
