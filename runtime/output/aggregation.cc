#include "aggregation.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "agg_order.h"
#include "histogram.h"

namespace dsched::output {

std::string_view agg_func_name(AggFunc f) {
  switch (f) {
    case AggFunc::Count: return "count";
    case AggFunc::Sum: return "sum";
    case AggFunc::Min: return "min";
    case AggFunc::Max: return "max";
    case AggFunc::Avg: return "avg";
    case AggFunc::Stddev: return "stddev";
    case AggFunc::Quantize: return "quantize";
    case AggFunc::Lquantize: return "lquantize";
    case AggFunc::Llquantize: return "llquantize";
  }
  return "?";
}

bool is_histogram(AggFunc f) {
  return f == AggFunc::Quantize || f == AggFunc::Lquantize || f == AggFunc::Llquantize;
}

size_t AggregationSpec::key_size() const {
  size_t n = 0;
  for (const KeyComponent& k : keys) n += k.byte_size();
  return n;
}

size_t AggregationSpec::value_words() const {
  switch (function) {
    case AggFunc::Count:
    case AggFunc::Sum: return 1;
    case AggFunc::Min:
    case AggFunc::Max:
    case AggFunc::Avg: return 2;
    case AggFunc::Stddev: return 4;
    case AggFunc::Quantize: return kQuantizeBuckets;
    case AggFunc::Lquantize: return size_t(lquantize.levels() + 2);
    case AggFunc::Llquantize: return size_t(llquantize_bucket_count(llquantize));
  }
  return 0;
}

std::optional<std::string> check_params(const AggregationSpec& spec) {
  constexpr int64_t kInt32Min = std::numeric_limits<int32_t>::min();
  constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
  if (spec.function == AggFunc::Lquantize) {
    const LquantizeParams& p = spec.lquantize;
    if (p.step < 1 || p.step > 65535) return "lquantize( ) step (argument #4) must be between 1 and 65535";
    if (p.base < kInt32Min || p.base > kInt32Max)
      return "lquantize( ) base (argument #2) must be a 32-bit quantity";
    if (p.limit < kInt32Min || p.limit > kInt32Max)
      return "lquantize( ) limit (argument #3) must be a 32-bit quantity";
    if (p.limit <= p.base) return "lquantize( ) limit (argument #3) must be greater than base (argument #2)";
    if (p.levels() < 1) return "lquantize( ) step (argument #4) is larger than the range of the quantization";
    if (p.levels() > 65535) return "lquantize( ) range (argument #3 - argument #2) / step makes too many levels";
  } else if (spec.function == AggFunc::Llquantize) {
    const LlquantizeParams& p = spec.llquantize;
    if (p.factor < 2 || p.factor > 65535) return "llquantize( ) factor (argument #2) must be between 2 and 65535";
    if (p.low < 0 || p.low > 65535) return "llquantize( ) low magnitude (argument #3) must be between 0 and 65535";
    if (p.high <= p.low || p.high > 65535)
      return "llquantize( ) high magnitude (argument #4) must be greater than low magnitude (argument #3)";
    if (p.nsteps < p.factor || p.nsteps > 65535 || p.nsteps % p.factor != 0)
      return "llquantize( ) factor (argument #2) must evenly divide the number of steps per magnitude "
             "(argument #5)";
    // Every magnitude wider than nsteps must split into nsteps equal buckets, and the top
    // bound factor^(high+1) must fit in 64 bits.
    __int128 top = 1;
    for (int64_t m = 0; m <= p.high; ++m) {
      top *= p.factor;
      if (top > std::numeric_limits<int64_t>::max())
        return "llquantize( ) factor (argument #2) raised to the high magnitude (argument #4) plus one "
               "overflows 64 bits";
      if (m >= p.low && top > p.nsteps && top % p.nsteps != 0)
        return "llquantize( ) number of steps per magnitude (argument #5) must evenly divide a power of "
               "the factor (argument #2)";
    }
  }
  return std::nullopt;
}

void combine_values(AggFunc f, std::span<int64_t> into, std::span<const int64_t> from) {
  auto add = [](int64_t a, int64_t b) { return int64_t(uint64_t(a) + uint64_t(b)); };
  switch (f) {
    case AggFunc::Min:
    case AggFunc::Max: {
      if (from[1] == 0) return;
      const bool better = f == AggFunc::Min ? from[0] < into[0] : from[0] > into[0];
      if (into[1] == 0 || better) {
        into[0] = from[0];
        into[1] = 1;
      }
      return;
    }
    case AggFunc::Stddev: {
      into[0] = add(into[0], from[0]);
      into[1] = add(into[1], from[1]);
      const uint64_t lo = uint64_t(into[2]) + uint64_t(from[2]);
      const uint64_t carry = lo < uint64_t(from[2]) ? 1 : 0;
      into[2] = int64_t(lo);
      into[3] = int64_t(uint64_t(into[3]) + uint64_t(from[3]) + carry);
      return;
    }
    default:
      for (size_t i = 0; i < into.size(); ++i) into[i] = add(into[i], from[i]);
  }
}

Aggregation::Aggregation(AggregationSpec spec) : spec_(std::move(spec)) {
  if (auto err = check_params(spec_)) throw std::invalid_argument(*err);
}

const AggEntry* Aggregation::find(std::string_view key) const {
  auto it = index_.find(std::string(key));
  return it == index_.end() ? nullptr : &entries_[it->second];
}

void Aggregation::merge(std::span<const uint8_t> key, std::span<const uint64_t> per_cpu_values) {
  const size_t words = spec_.value_words();
  if (key.size() != spec_.key_size())
    throw std::invalid_argument("@" + spec_.name + ": key has " + std::to_string(key.size()) + " bytes, expected " +
                                std::to_string(spec_.key_size()));
  if (per_cpu_values.empty() || per_cpu_values.size() % words != 0)
    throw std::invalid_argument("@" + spec_.name + ": value has " + std::to_string(per_cpu_values.size()) +
                                " words, expected a multiple of " + std::to_string(words));
  std::string k(reinterpret_cast<const char*>(key.data()), key.size());
  auto [it, inserted] = index_.try_emplace(k, entries_.size());
  if (inserted) entries_.push_back(AggEntry{std::move(k), std::vector<int64_t>(words, 0)});
  std::vector<int64_t>& into = entries_[it->second].value;
  std::vector<int64_t> cpu(words);
  for (size_t off = 0; off < per_cpu_values.size(); off += words) {
    for (size_t i = 0; i < words; ++i) cpu[i] = int64_t(per_cpu_values[off + i]);
    combine_values(spec_.function, into, cpu);
  }
}

void Aggregation::reset() {
  entries_.clear();
  index_.clear();
}

void Aggregation::clear() {
  for (AggEntry& e : entries_) std::fill(e.value.begin(), e.value.end(), 0);
}

std::vector<std::string> Aggregation::trunc(int64_t n) {
  std::vector<const AggEntry*> order = sort_by_value(*this);
  if (n > 0) std::reverse(order.begin(), order.end());
  const size_t keep = std::min<uint64_t>(n < 0 ? 0 - uint64_t(n) : uint64_t(n), order.size());
  std::vector<std::string> removed;
  for (size_t i = keep; i < order.size(); ++i) removed.push_back(order[i]->key);
  if (removed.empty()) return removed;
  std::vector<AggEntry> kept;
  for (size_t i = 0; i < keep; ++i) kept.push_back(*order[i]);
  entries_ = std::move(kept);
  index_.clear();
  for (size_t i = 0; i < entries_.size(); ++i) index_[entries_[i].key] = i;
  return removed;
}

void Aggregation::normalize(uint64_t n) {
  if (n == 0) throw std::invalid_argument("normalize( ) of @" + spec_.name + ": the divisor must be positive");
  normal_ = n;
}

size_t key_offset(const AggregationSpec& spec, size_t i) {
  size_t off = 0;
  for (size_t k = 0; k < i; ++k) off += spec.keys[k].byte_size();
  return off;
}

int64_t key_integer(const AggregationSpec& spec, std::string_view key, size_t i) {
  uint64_t raw = 0;
  std::memcpy(&raw, key.data() + key_offset(spec, i), sizeof raw);
  const KeyComponent& c = spec.keys[i];
  if (c.size >= 8) return int64_t(raw);
  const unsigned bits = c.size * 8;
  const uint64_t mask = (uint64_t(1) << bits) - 1;
  raw &= mask;
  if (c.is_signed && (raw >> (bits - 1)) != 0) raw |= ~mask;
  return int64_t(raw);
}

std::string_view key_string(const AggregationSpec& spec, std::string_view key, size_t i) {
  std::string_view s = key.substr(key_offset(spec, i), spec.keys[i].size);
  const size_t nul = s.find('\0');
  return nul == std::string_view::npos ? s : s.substr(0, nul);
}

KeyBuilder& KeyBuilder::integer(int64_t v) {
  char raw[8];
  std::memcpy(raw, &v, sizeof raw);
  bytes_.append(raw, sizeof raw);
  return *this;
}

KeyBuilder& KeyBuilder::string(std::string_view s, unsigned strsize) {
  std::string padded(strsize, '\0');
  std::memcpy(padded.data(), s.data(), std::min<size_t>(s.size(), strsize ? strsize - 1 : 0));
  bytes_ += padded;
  return *this;
}

}  // namespace dsched::output
