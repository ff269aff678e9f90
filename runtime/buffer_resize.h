// bufresize=auto, DTrace's default: a buffer the kernel cannot allocate is halved until it can be,
// and the run says so ("buffer size lowered to 2m"); bufresize=manual makes the failure an error.
// The buffers are the trace buffer (the ring buffer map) and the aggregations' maps.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

struct bpf_object;

namespace dsched {

class BufferResizer {
 public:
  // `quiet` (quietresize): buffers are lowered without a note.
  explicit BufferResizer(bool automatic, bool quiet = false) : automatic_(automatic), quiet_(quiet) {}

  // After a load of `object` failed with `err`, libbpf having said `log`: true when the map
  // that could not be created is a buffer and was halved, so the load is to be tried again.
  bool halve_failed(int err, const std::string& log, bpf_object* object);
  // Applies the sizes lowered so far to a freshly opened object.
  void apply(bpf_object* object) const;
  // One line per lowered buffer, as DTrace says it: "aggregation size lowered to 64k" (none when
  // quiet).
  std::vector<std::string> notes() const;

  // The map libbpf could not create ("map 'events': failed to create: ..."), if any.
  static std::optional<std::string> failed_map(const std::string& log);
  // Sizes as DTrace writes them: 2m, 64k, 512 (the largest unit that divides them).
  static std::string size_text(uint64_t bytes);

 private:
  struct Lowered {
    uint32_t entries;
    uint64_t bytes;  // the buffer's size at `entries`
    const char* what;
  };
  bool automatic_;
  bool quiet_;
  std::map<std::string, Lowered> lowered_;  // by map name
};

}  // namespace dsched
