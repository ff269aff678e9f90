// Snapshot files: zstd-compressed JSON, dsched's own format or ktstr's. Reading streams the file
// (decompression and parsing at once, within a cap) and every malformed file yields a
// SnapshotError naming the file and the reason. Writing is atomic and never clobbers a file that
// is not a snapshot.
#pragma once

#include <cstddef>
#include <string>

#include "snapshot.h"
#include "snapshot_error.h"
#include "zstd_stream.h"

namespace dsched::ctprof {

inline constexpr std::size_t kMaxDecompressedBytes = std::size_t{256} << 20;
// Snapshots' JSON compresses about 8 times (zstd level 3); a file of repeated records that
// compresses thousands of times is a bomb, refused before its records are built.
inline constexpr std::size_t kMaxCompressionRatio = 100;

// dsched's format, current version.
std::string to_json(const Snapshot& snap);
// Either format from uncompressed JSON text (`name`: for messages).
Snapshot from_json(const std::string& text, const std::string& name);

// Writes a temporary file in the directory of `path` and renames it over `path`. Refuses (with a
// SnapshotError naming `path`) when `path` is a symbolic link, not a regular file, or a regular
// file that is not a ctprof snapshot.
void write_snapshot_file(const Snapshot& snap, const std::string& path);
// `cap`: decompressed-size limit; reading stops as soon as it or `max_ratio` (ZstdReadBuf) is
// crossed.
Snapshot read_snapshot_file(const std::string& path, std::size_t cap = kMaxDecompressedBytes,
                            std::size_t max_ratio = kMaxCompressionRatio);

}  // namespace dsched::ctprof
