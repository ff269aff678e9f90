// Snapshot files: zstd-compressed JSON. Reading is defensive: every malformed file yields a
// SnapshotError naming the file and the reason.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include "snapshot.h"

namespace dsched::ctprof {

class SnapshotError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr std::size_t kMaxDecompressedBytes = std::size_t{256} << 20;

std::string to_json(const Snapshot& snap);
Snapshot from_json(const std::string& text, const std::string& name);  // name: for messages

void write_snapshot_file(const Snapshot& snap, const std::string& path);
// `cap`: decompressed-size limit; decompression stops as soon as it is crossed.
Snapshot read_snapshot_file(const std::string& path, std::size_t cap = kMaxDecompressedBytes);

// Exposed for tests: zstd round trip with the same cap and messages.
std::string compress(const std::string& data);
std::string decompress(const std::string& data, const std::string& name, std::size_t cap);

}  // namespace dsched::ctprof
