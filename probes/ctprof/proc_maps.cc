#include "proc_maps.h"

#include <sys/sysmacros.h>

#include <charconv>

namespace dsched::ctprof {
namespace {

bool hex(std::string_view s, std::uint64_t& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out, 16);
  return !s.empty() && ec == std::errc() && p == s.data() + s.size();
}

// Splits off the next space-separated field of `line`.
std::string_view next_field(std::string_view& line) {
  const auto start = line.find_first_not_of(' ');
  if (start == std::string_view::npos) {
    line = {};
    return {};
  }
  line.remove_prefix(start);
  const auto end = line.find(' ');
  const auto field = line.substr(0, end);
  line = end == std::string_view::npos ? std::string_view() : line.substr(end);
  return field;
}

}  // namespace

std::vector<MappedFile> parse_maps(std::string_view text) {
  std::vector<MappedFile> out;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    // start-end perms offset dev inode path
    const auto range = next_field(line);
    next_field(line);  // permissions
    const auto offset = next_field(line), dev = next_field(line), inode = next_field(line);
    const auto path_start = line.find_first_not_of(' ');
    if (path_start == std::string_view::npos || line[path_start] != '/') continue;
    const auto dash = range.find('-');
    const auto colon = dev.find(':');
    std::uint64_t start = 0, off = 0, major = 0, minor = 0, ino = 0;
    if (dash == std::string_view::npos || colon == std::string_view::npos ||
        !hex(range.substr(0, dash), start) || !hex(offset, off) || off != 0 ||
        !hex(dev.substr(0, colon), major) || !hex(dev.substr(colon + 1), minor) ||
        std::from_chars(inode.data(), inode.data() + inode.size(), ino).ec != std::errc())
      continue;
    std::string path(line.substr(path_start));
    if (path.ends_with(" (deleted)")) continue;  // replaced on disk: not the file we would read
    // Several offset-0 mappings of one object can exist; the lowest is the load address.
    bool seen = false;
    for (const auto& f : out) seen |= f.path == path;
    if (!seen) out.push_back({std::move(path), start, makedev(major, minor), ino});
  }
  return out;
}

std::optional<MappedFile> find_mapped(const std::vector<MappedFile>& files,
                                      std::initializer_list<std::string_view> prefixes) {
  for (const auto& f : files) {
    const std::string_view name = std::string_view(f.path).substr(f.path.rfind('/') + 1);
    for (auto p : prefixes)
      if (name.starts_with(p)) return f;
  }
  return std::nullopt;
}

}  // namespace dsched::ctprof
