// Aggregations as compiled programs and user space share them: the layout of each aggregation's
// map (its key components and value words), the run-time face of an aggregating function, and an
// aggregation's entries combined over CPUs.
//
// Map layout (one BPF map per aggregation, named by aggregation_map_name()):
//  - keyed: per-CPU hash, key = packed key bytes; key-less: per-CPU array of one entry.
//  - key: each component in order; an integer component takes 8 bytes (sign- or zero-extended
//    to 64 bits, little endian) whatever its D size, or 4 (its low 32 bits) when every component
//    of the key is an integer of at most 4 bytes (KeyComponent::width); a string component takes
//    Options::string_bytes() bytes (strsize characters at most), NUL-terminated and NUL-padded.
//  - value, per CPU: AggregatingFunction::value_words() 64-bit little-endian words, laid out as
//    that function defines them; key-less, one word more, nonzero on a CPU once that CPU has
//    updated the aggregation (the array's one entry always exists, and a sum may well be 0).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "abi/value.h"

namespace dsched::abi {

struct KeyComponent {
  enum class Kind { Integer, String, Stack, Symbol };
  Kind kind = Kind::Integer;
  unsigned size = 8;      // integers: the D size (1, 2, 4, 8); strings: string_bytes(); others: bytes
  bool is_signed = true;  // integers
  AddressLayout addresses;  // stacks and symbols
  unsigned width = 8;       // integers: bytes in the packed key, 8 or 4

  static KeyComponent integer(unsigned size, bool is_signed, unsigned width = 8) {
    return {Kind::Integer, size, is_signed, {}, width};
  }
  static KeyComponent string(unsigned bytes) { return {Kind::String, bytes, false, {}}; }
  static KeyComponent address(Kind kind, const AddressLayout& layout) {
    return {kind, layout.byte_size(), false, layout};
  }
  // Bytes the component occupies in the packed key.
  unsigned byte_size() const { return kind == Kind::Integer ? width : size; }
};

// One printed row of a histogram: the bucket's lower bound (or, for the open-ended outer
// buckets, a label such as "< 0" or ">= 100") and its count.
struct HistogramRow {
  int64_t value = 0;
  std::string label;  // empty: the row is labelled by `value`
  int64_t count = 0;
};

// What an aggregation's value prints as.
struct AggValue {
  enum class Kind { Signed, Unsigned, Histogram };
  Kind kind = Kind::Signed;
  int64_t number = 0;                // Signed/Unsigned (the bits)
  std::vector<HistogramRow> rows;    // Histogram: the rows DTrace prints, in order
  uint64_t normal = 1;               // Histogram: counts print divided by it (bars use the counts)
};

// Where a value sorts among the values of its aggregation: by `primary`, then by `secondary`.
struct OrderKey {
  long double primary = 0;
  int64_t secondary = 0;
  int compare(const OrderKey& other) const {
    if (primary != other.primary) return primary < other.primary ? -1 : 1;
    return secondary < other.secondary ? -1 : (secondary > other.secondary ? 1 : 0);
  }
};

// An aggregating function as user space sees it; its descriptor implements this.
class AggregatingFunction {
 public:
  virtual ~AggregatingFunction() = default;
  virtual std::string_view name() const = 0;
  // 64-bit words of one CPU's value, given the function's constant parameters.
  virtual size_t value_words(std::span<const int64_t> params) const = 0;
  // Adds one CPU's value (or another entry's) into `into`. By default word by word.
  virtual void combine(std::span<int64_t> into, std::span<const int64_t> from) const;
  // The value as printed, with normalization applied as DTrace applies it.
  virtual AggValue value(std::span<const int64_t> params, std::span<const int64_t> words,
                         uint64_t normal) const = 0;
  // Where the value sorts, in DTrace's order of values.
  virtual OrderKey order_key(std::span<const int64_t> params, std::span<const int64_t> words) const = 0;
};

// The most bytes of one CPU's value in a per-CPU map: the kernel keeps each in one allocation unit
// (PCPU_MIN_UNIT_SIZE).
inline constexpr size_t kLargestPerCpuValue = 32768;

struct AggregationSpec {
  uint32_t id = 0;   // aggregation id: end-of-run printing goes in this order
  std::string name;  // without '@' ("" for the anonymous @)
  const AggregatingFunction* function = nullptr;
  std::vector<int64_t> params;  // the function's constant parameters (lquantize: base, limit, step)
  std::vector<KeyComponent> keys;

  size_t key_size() const;     // bytes of one packed key
  size_t value_words() const;      // 64-bit words of one CPU's value
  size_t map_value_words() const;  // and of one CPU's map value: key-less, the presence word too
};

// The BPF map that holds aggregation `id`.
std::string aggregation_map_name(uint32_t id);

struct AggEntry {
  std::string key;             // packed key bytes (see the layout above)
  std::vector<int64_t> value;  // value words combined over CPUs (same layout as one CPU's)
  // aggpercpu: each CPU's value words, by CPU id (all zero where the key never fired); else empty.
  std::vector<std::vector<int64_t>> per_cpu;
};

class Aggregation {
 public:
  explicit Aggregation(AggregationSpec spec) : spec_(std::move(spec)) {}

  const AggregationSpec& spec() const { return spec_; }
  const std::vector<AggEntry>& entries() const { return entries_; }
  const AggEntry* find(std::string_view key) const;

  // Combines the per-CPU values of one key (value_words() words per CPU, any number of CPUs)
  // and adds the result to the key's entry, creating it if needed. Throws std::invalid_argument
  // when the sizes do not match the spec.
  void merge(std::span<const uint8_t> key, std::span<const uint64_t> per_cpu_values);
  // merge() of a key not merged since the last reset(), as each key of one read of a map is: it
  // needs no lookup, and the index of keys is built only when a lookup needs it.
  void merge_new(std::span<const uint8_t> key, std::span<const uint64_t> per_cpu_values);

  // aggpercpu: merge() keeps each CPU's value beside the total.
  void keep_per_cpu() { per_cpu_ = true; }
  // aggpercpu: the entry of `key`, with each CPU's value; null when they are not kept (no lookup).
  const AggEntry* with_per_cpu(std::string_view key) const { return per_cpu_ ? find(key) : nullptr; }

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
  // The printed value of an entry's words.
  AggValue value(std::span<const int64_t> words) const;
  // Where one of this aggregation's values sorts.
  OrderKey order_key(std::span<const int64_t> words) const;

  // Set once any entry was printed by printa(); such aggregations are left out of the
  // end-of-run printing.
  bool printed() const { return printed_; }
  void mark_printed() { printed_ = true; }

 private:
  AggregationSpec spec_;
  // Throws std::invalid_argument unless the sizes are the spec's.
  void check_sizes(std::span<const uint8_t> key, std::span<const uint64_t> per_cpu_values) const;
  // Adds the per-CPU values into `entry`.
  void combine(AggEntry& entry, std::span<const uint64_t> per_cpu_values);
  // Indexes the entries that merge_new() added since the last lookup.
  void index_new() const;

  std::vector<AggEntry> entries_;
  mutable std::unordered_map<std::string, size_t> index_;
  mutable size_t indexed_ = 0;  // entries_[0, indexed_) are in index_
  uint64_t normal_ = 1;
  bool printed_ = false;
  bool per_cpu_ = false;
};

// Reads integer key component `i` of `key` as its D type sees it (sign- or zero-extended from
// the D size) and string components as text up to the first NUL.
int64_t key_integer(const AggregationSpec& spec, std::string_view key, size_t i);
std::string_view key_string(const AggregationSpec& spec, std::string_view key, size_t i);
size_t key_offset(const AggregationSpec& spec, size_t i);
// Key component `i` as a typed value.
Value key_value(const AggregationSpec& spec, std::string_view key, size_t i);

// Builds a packed key from typed components (the runtime and the tests use it).
class KeyBuilder {
 public:
  KeyBuilder& integer(int64_t v, unsigned width = 8);
  KeyBuilder& string(std::string_view s, unsigned bytes);
  std::string bytes() const { return bytes_; }
  std::span<const uint8_t> span() const {
    return {reinterpret_cast<const uint8_t*>(bytes_.data()), bytes_.size()};
  }

 private:
  std::string bytes_;
};

}  // namespace dsched::abi
