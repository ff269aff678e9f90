// The file-backed mappings of a process (/proc/<pid>/maps), enough to find where a shared
// object was loaded.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dsched::ctprof {

struct MappedFile {
  std::string path;
  std::uint64_t base = 0;  // load address of the object (mapping start minus file offset)
  std::uint64_t dev = 0, inode = 0;
};

// One entry per file mapped at file offset 0 (the first mapping of each object), in address
// order. Anonymous and special mappings ([heap], [vdso]) are left out.
std::vector<MappedFile> parse_maps(std::string_view text);

// The first mapping whose file name (after the last '/') starts with one of `prefixes`.
std::optional<MappedFile> find_mapped(const std::vector<MappedFile>& files,
                                      std::initializer_list<std::string_view> prefixes);

}  // namespace dsched::ctprof
