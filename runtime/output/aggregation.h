// Aggregations in user space: what one aggregation is (its spec, shared with the code
// generator as the layout contract of its BPF map) and its entries combined over CPUs.
//
// Map layout (one BPF map per aggregation):
//  - keyed: per-CPU hash, key = packed key bytes; key-less: per-CPU array of one entry.
//  - key: each component in order; an integer component takes 8 bytes (sign- or zero-extended
//    to 64 bits, little endian) whatever its D size; a string component takes `strsize` bytes,
//    NUL-terminated and NUL-padded.
//  - value, per CPU, 64-bit little-endian words:
//      count [count]  sum [sum]  min/max [value, seen]  avg [sum, count]
//      stddev [count, sum, sumsq_lo, sumsq_hi]
//      quantize 127 words, lquantize levels+2 words, llquantize llquantize_bucket_count() words
//    (see histogram.h for the bucket math).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace dsched::output {

enum class AggFunc { Count, Sum, Min, Max, Avg, Stddev, Quantize, Lquantize, Llquantize };

std::string_view agg_func_name(AggFunc f);
bool is_histogram(AggFunc f);

struct KeyComponent {
  enum class Kind { Integer, String };
  Kind kind = Kind::Integer;
  unsigned size = 8;       // integers: the D size (1, 2, 4, 8); strings: strsize
  bool is_signed = true;   // integers

  static KeyComponent integer(unsigned size, bool is_signed) { return {Kind::Integer, size, is_signed}; }
  static KeyComponent string(unsigned strsize) { return {Kind::String, strsize, false}; }
  // Bytes the component occupies in the packed key.
  unsigned byte_size() const { return kind == Kind::Integer ? 8 : size; }
};

struct LquantizeParams {
  int64_t base = 0;
  int64_t limit = 0;
  int64_t step = 1;
  int64_t levels() const { return (limit - base) / step; }
};

struct LlquantizeParams {
  int64_t factor = 10;
  int64_t low = 0;    // lowest magnitude
  int64_t high = 0;   // highest magnitude
  int64_t nsteps = 10;
};

struct AggregationSpec {
  uint32_t id = 0;        // aggregation id: end-of-run printing goes in this order
  std::string name;       // without '@' ("" for the anonymous @)
  AggFunc function = AggFunc::Count;
  LquantizeParams lquantize;    // used when function == Lquantize
  LlquantizeParams llquantize;  // used when function == Llquantize
  std::vector<KeyComponent> keys;

  size_t key_size() const;     // bytes of one packed key
  size_t value_words() const;  // 64-bit words of one CPU's value
};

// Checks the constant parameters of lquantize()/llquantize(); returns a message naming the
// bad argument, or nullopt. Other functions have no parameters to check.
std::optional<std::string> check_params(const AggregationSpec& spec);

struct AggEntry {
  std::string key;               // packed key bytes (see the layout above)
  std::vector<int64_t> value;    // value words combined over CPUs (same layout as one CPU's)
};

class Aggregation {
 public:
  explicit Aggregation(AggregationSpec spec);

  const AggregationSpec& spec() const { return spec_; }
  const std::vector<AggEntry>& entries() const { return entries_; }
  const AggEntry* find(std::string_view key) const;

  // Combines the per-CPU values of one key (value_words() words per CPU, any number of CPUs)
  // and adds the result to the key's entry, creating it if needed. Throws std::invalid_argument
  // when the sizes do not match the spec.
  void merge(std::span<const uint8_t> key, std::span<const uint64_t> per_cpu_values);

  // Drops every entry (e.g. before reading a fresh snapshot of cumulative maps).
  void reset();
  // clear(@a): zeroes every value, keeps the keys.
  void clear();
  // trunc(@a, n): keeps the n largest entries by value (n < 0: the -n smallest); n == 0 (and
  // trunc(@a)) removes everything. Returns the removed keys so the caller can delete them
  // from the BPF map too.
  std::vector<std::string> trunc(int64_t n);

  // normalize(@a, n) / denormalize(@a): a print-time divisor. n must be > 0.
  void normalize(uint64_t n);
  void denormalize() { normal_ = 1; }
  uint64_t normal() const { return normal_; }

  // Set once any entry was printed by printa(); such aggregations are left out of the
  // end-of-run printing.
  bool printed() const { return printed_; }
  void mark_printed() { printed_ = true; }

 private:
  AggregationSpec spec_;
  std::vector<AggEntry> entries_;
  std::unordered_map<std::string, size_t> index_;
  uint64_t normal_ = 1;
  bool printed_ = false;
};

// Adds one CPU's (or one entry's) value words `from` into `into` as the function combines
// them: sums for counters and histograms, 128-bit sum of squares for stddev, min/max by the
// seen flag.
void combine_values(AggFunc f, std::span<int64_t> into, std::span<const int64_t> from);

// Reads integer key component `i` of `key` as its D type sees it (sign- or zero-extended from
// the D size) and string components as text up to the first NUL.
int64_t key_integer(const AggregationSpec& spec, std::string_view key, size_t i);
std::string_view key_string(const AggregationSpec& spec, std::string_view key, size_t i);
size_t key_offset(const AggregationSpec& spec, size_t i);

// Builds a packed key from typed components (the runtime and the tests use it).
class KeyBuilder {
 public:
  KeyBuilder& integer(int64_t v);
  KeyBuilder& string(std::string_view s, unsigned strsize);
  std::string bytes() const { return bytes_; }
  std::span<const uint8_t> span() const {
    return {reinterpret_cast<const uint8_t*>(bytes_.data()), bytes_.size()};
  }

 private:
  std::string bytes_;
};

}  // namespace dsched::output
