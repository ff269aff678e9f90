#include "runtime/buffer_resize.h"

#include <bpf/libbpf.h>

#include <cerrno>

namespace dsched {
namespace {

// What DTrace calls a buffer of this map, or null when it is not one it resizes. The ring buffer
// is the trace buffer; per-CPU hashes are the aggregations with keys (lang/codegen/maps.cc).
const char* buffer_kind(const bpf_map* map) {
  if (bpf_map__type(map) == BPF_MAP_TYPE_RINGBUF) return "buffer size";
  if (bpf_map__type(map) == BPF_MAP_TYPE_PERCPU_HASH) return "aggregation size";
  return nullptr;
}

// A ring buffer is a power of two of at least a page; a hash keeps at least one entry.
uint32_t smallest_entries(const bpf_map* map) { return bpf_map__type(map) == BPF_MAP_TYPE_RINGBUF ? 4096 : 1; }

uint64_t buffer_bytes(const bpf_map* map, uint32_t entries) {
  if (bpf_map__type(map) == BPF_MAP_TYPE_RINGBUF) return entries;
  return uint64_t(entries) * (bpf_map__key_size(map) + bpf_map__value_size(map));
}

}  // namespace

std::optional<std::string> BufferResizer::failed_map(const std::string& log) {
  const std::string marker = "map '";
  for (size_t at = log.find(marker); at != std::string::npos; at = log.find(marker, at + 1)) {
    const size_t name = at + marker.size(), end = log.find('\'', name);
    if (end != std::string::npos && log.compare(end, 21, "': failed to create: ") == 0)
      return log.substr(name, end - name);
  }
  return std::nullopt;
}

std::string BufferResizer::size_text(uint64_t bytes) {
  static const std::pair<const char*, int> units[] = {{"g", 30}, {"m", 20}, {"k", 10}};
  for (auto [suffix, shift] : units)
    if (bytes >= (uint64_t{1} << shift) && bytes % (uint64_t{1} << shift) == 0)
      return std::to_string(bytes >> shift) + suffix;
  return std::to_string(bytes);
}

bool BufferResizer::halve_failed(int err, const std::string& log, bpf_object* object) {
  if (!automatic_ || (err != -ENOMEM && err != -E2BIG)) return false;
  const std::optional<std::string> name = failed_map(log);
  bpf_map* map = name ? bpf_object__find_map_by_name(object, name->c_str()) : nullptr;
  const char* what = map ? buffer_kind(map) : nullptr;
  if (!what) return false;
  const uint32_t entries = bpf_map__max_entries(map) / 2;
  if (entries < smallest_entries(map)) return false;
  lowered_[*name] = {entries, buffer_bytes(map, entries), what};
  return true;
}

void BufferResizer::apply(bpf_object* object) const {
  for (const auto& [name, lowered] : lowered_)
    if (bpf_map* map = bpf_object__find_map_by_name(object, name.c_str()))
      bpf_map__set_max_entries(map, lowered.entries);
}

std::vector<std::string> BufferResizer::notes() const {
  std::vector<std::string> notes;
  if (quiet_) return notes;
  for (const auto& [name, lowered] : lowered_)
    notes.push_back(std::string(lowered.what) + " lowered to " + size_text(lowered.bytes));
  return notes;
}

}  // namespace dsched
