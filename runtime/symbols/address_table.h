// Sorted address ranges with names: the lookup that kernel and ELF symbols share. Names live in
// one pool, so a table of 100,000 symbols is a few megabytes and one binary search per lookup.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dsched::symbols {

class AddressTable {
 public:
  struct Range {
    uint64_t start;
    uint64_t end;  // one past the last address
    uint32_t name_at, name_size;
    uint32_t module;  // the caller's index (the kernel's module list); 0 when unused
    uint32_t rank;    // among names at one address the lowest wins; unused after seal()
  };

  // A range of known size. `rank` chooses between aliases at one start (lower is preferred).
  void add_sized(uint64_t start, uint64_t size, std::string_view name, uint32_t module, uint32_t rank);
  // A range that ends where the next one starts, and at `limit` at the latest.
  void add_open(uint64_t start, uint64_t limit, std::string_view name, uint32_t module, uint32_t rank);
  // Sorts, keeps the preferred name at each start and closes open ranges. Call once, after the adds.
  void seal();

  // The range holding `address`, or null.
  const Range* find(uint64_t address) const;
  std::string_view name(const Range& range) const { return std::string_view(names_).substr(range.name_at, range.name_size); }
  size_t size() const { return ranges_.size(); }

 private:
  void add(uint64_t start, uint64_t end, std::string_view name, uint32_t module, uint32_t rank, bool open);

  std::vector<Range> ranges_;
  std::vector<uint64_t> starts_;  // of ranges_, searched: a quarter of the memory to walk
  std::vector<bool> open_;  // parallel to ranges_ until seal()
  std::string names_;
};

// How much a name looks like an alias (leading underscores: "__getpid" for "getpid"); added to ranks
// so that the plain name of a function is the one printed.
uint32_t alias_rank(std::string_view name);

}  // namespace dsched::symbols
