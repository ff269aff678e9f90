#include "runtime/symbols/process_maps.h"

#include <fcntl.h>
#include <sys/sysmacros.h>

#include <charconv>

#include "probes/ctprof/file_read.h"
#include "runtime/symbols/text_lines.h"

namespace dsched::symbols {
namespace {

constexpr std::string_view kDeleted = " (deleted)";

// Reads a number in `base` at the front of `text` and drops it and the `separator` after it.
bool take_number(std::string_view& text, uint64_t& value, int base, char separator) {
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (error != std::errc() || end == text.data() + text.size() || *end != separator) return false;
  text.remove_prefix(end - text.data() + 1);
  return true;
}

// "start-end perms offset major:minor inode   path"
bool parse_line(std::string_view line, Mapping& mapping) {
  uint64_t major = 0, minor = 0;
  if (!take_number(line, mapping.start, 16, '-') || !take_number(line, mapping.end, 16, ' ')) return false;
  size_t perms_end = line.find(' ');
  if (perms_end == std::string_view::npos) return false;
  mapping.executable = line.substr(0, perms_end).find('x') != std::string_view::npos;
  line.remove_prefix(perms_end + 1);
  if (!take_number(line, mapping.offset, 16, ' ') || !take_number(line, major, 16, ':') ||
      !take_number(line, minor, 16, ' '))
    return false;
  auto [end, error] = std::from_chars(line.data(), line.data() + line.size(), mapping.inode, 10);
  if (error != std::errc()) return false;
  line.remove_prefix(end - line.data());
  size_t path_at = line.find_first_not_of(' ');
  std::string_view path = path_at == std::string_view::npos ? std::string_view() : line.substr(path_at);
  mapping.device = makedev(major, minor);
  if (path == "[vdso]") {
    mapping.kind = Mapping::Kind::vdso;
  } else if (path.empty() || path.front() != '/') {
    mapping.kind = Mapping::Kind::anonymous;
  } else if (path.ends_with(kDeleted)) {
    mapping.kind = Mapping::Kind::deleted_file;
    path.remove_suffix(kDeleted.size());
  } else {
    mapping.kind = Mapping::Kind::file;
  }
  mapping.path = mapping.kind == Mapping::Kind::anonymous ? "" : std::string(path);
  return true;
}

}  // namespace

std::vector<Mapping> parse_maps(std::string_view text) {
  std::vector<Mapping> mappings;
  for_each_line(text, [&](std::string_view line) {
    Mapping mapping;
    if (parse_line(line, mapping)) mappings.push_back(std::move(mapping));
  });
  return mappings;
}

std::string read_text(const std::string& path) {
  std::string text;
  return ctprof::read_at(AT_FDCWD, path.c_str(), text) == 0 ? text : std::string();
}

std::string module_name(const Mapping& mapping) {
  size_t slash = mapping.path.rfind('/');
  return slash == std::string::npos ? mapping.path : mapping.path.substr(slash + 1);
}

}  // namespace dsched::symbols
