// The two snapshot file formats ctprof reads: dsched's own (versioned) and ktstr's. Each reader
// receives the records of a streamed parse (json_stream.h) and builds a Snapshot.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "json_stream.h"
#include "snapshot.h"
#include "snapshot_error.h"
#include "snapshot_io.h"

namespace dsched::ctprof {

inline constexpr const char* kDschedFormat = "dsched-ctprof-snapshot";
inline constexpr int kDschedVersion = 2;  // written; versions 1 and 2 are read

class FormatReader : public SnapshotConsumer {
 public:
  // Checks what the whole file must have held and returns the snapshot.
  virtual Snapshot finish() = 0;
  // Memory the snapshot read so far holds, roughly (kept up to date as records arrive).
  std::size_t memory_estimate() const { return record_bytes_; }

 protected:
  // Readers call these for every record they keep.
  void count(const ThreadRecord& t);
  void count(const std::string& cgroup_path, const CgroupStats& stats);

 private:
  std::size_t record_bytes_ = 0;
};

// Reader for the format announced by the first top-level member: "format" (dsched) or
// "captured_at_unix_ns" (ktstr). Throws SnapshotError naming `name` otherwise.
std::unique_ptr<FormatReader> reader_for(const std::string& first_key, const std::string& name);
std::unique_ptr<FormatReader> dsched_reader(const std::string& name);
std::unique_ptr<FormatReader> ktstr_reader(const std::string& name);

// Runs `fn`, turning the JSON library's type and range errors into SnapshotError naming `name`
// (and `what`, when given: "thread 7").
template <typename Fn>
auto with_schema_errors(const std::string& name, const std::string& what, Fn&& fn) {
  try {
    return fn();
  } catch (const nlohmann::json::exception& e) {
    std::string why = e.what();
    if (auto tag_end = why.find("] "); why.starts_with("[json.") && tag_end != std::string::npos)
      why.erase(0, tag_end + 2);
    throw SnapshotError(name + ": not a ctprof snapshot: " + (what.empty() ? "" : what + ": ") +
                        why);
  }
}

}  // namespace dsched::ctprof
