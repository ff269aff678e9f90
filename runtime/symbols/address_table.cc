#include "runtime/symbols/address_table.h"

#include <algorithm>
#include <numeric>

namespace dsched::symbols {

void AddressTable::add(uint64_t start, uint64_t end, std::string_view name, uint32_t module, uint32_t rank,
                       bool open) {
  ranges_.push_back({start, end, static_cast<uint32_t>(names_.size()), static_cast<uint32_t>(name.size()), module,
                     rank});
  open_.push_back(open);
  names_.append(name);
}

void AddressTable::add_sized(uint64_t start, uint64_t size, std::string_view name, uint32_t module,
                             uint32_t rank) {
  add(start, start + size, name, module, rank, false);
}

void AddressTable::add_open(uint64_t start, uint64_t limit, std::string_view name, uint32_t module,
                            uint32_t rank) {
  add(start, limit, name, module, rank, true);
}

void AddressTable::seal() {
  std::vector<uint32_t> order(ranges_.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const Range &x = ranges_[a], &y = ranges_[b];
    if (x.start != y.start) return x.start < y.start;
    if (x.rank != y.rank) return x.rank < y.rank;
    return name(x) < name(y);
  });
  std::vector<Range> sealed;
  std::vector<bool> open;
  sealed.reserve(order.size());
  for (uint32_t index : order) {
    const Range& range = ranges_[index];
    if (!sealed.empty() && sealed.back().start == range.start) {
      // An alias: the preferred name came first, but a sized alias still tells where it ends.
      if (open.back() && !open_[index]) {
        sealed.back().end = range.end;
        open.back() = false;
      }
      continue;
    }
    sealed.push_back(range);
    open.push_back(open_[index]);
  }
  for (size_t i = 0; i + 1 < sealed.size(); ++i)
    if (open[i]) sealed[i].end = std::min(sealed[i].end, sealed[i + 1].start);
  ranges_ = std::move(sealed);
  starts_.resize(ranges_.size());
  for (size_t i = 0; i < ranges_.size(); ++i) starts_[i] = ranges_[i].start;
  open_.clear();
  open_.shrink_to_fit();
}

const AddressTable::Range* AddressTable::find(uint64_t address) const {
  auto after = std::upper_bound(starts_.begin(), starts_.end(), address);
  if (after == starts_.begin()) return nullptr;
  const Range& range = ranges_[after - starts_.begin() - 1];
  return address < range.end ? &range : nullptr;
}

uint32_t alias_rank(std::string_view name) {
  uint32_t underscores = 0;
  while (underscores < name.size() && name[underscores] == '_') ++underscores;
  return underscores;
}

}  // namespace dsched::symbols
