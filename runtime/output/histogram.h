// Histogram aggregations: bucket math (mirrored by the BPF code generator) and DTrace's
// rendering of quantize(), lquantize() and llquantize() values.
//
// quantize: 127 buckets; index 63 holds 0, index 64+k holds [2^k, 2^(k+1)) for k = 0..62
//   (the last one everything >= 2^62), index 62-k holds (-2^(k+1), -2^k] (the first one
//   everything <= -2^62).
// lquantize(base, limit, step): levels = (limit-base)/step; index 0 holds v < base, index i
//   (1..levels) holds [base+(i-1)*step, base+i*step), index levels+1 holds
//   v >= base+levels*step (which is `limit` when step divides limit-base).
// llquantize(factor, low, high, nsteps): index 0 holds v < factor^low; then for each magnitude
//   m = low..high the range [factor^m, factor^(m+1)) is cut into buckets of width
//   factor^(m+1)/min(nsteps, factor^(m+1)); there are min(nsteps, factor^(m+1)) *
//   (1 - 1/factor) of them, because the lowest 1/factor of the range belongs to the magnitude
//   below. The last index holds v >= factor^(high+1).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "aggregation.h"

namespace dsched::output {

constexpr int kQuantizeBuckets = 127;
constexpr int kQuantizeZeroBucket = 63;

int quantize_bucket(int64_t value);
int64_t quantize_bucket_value(int index);

int lquantize_bucket(const LquantizeParams& p, int64_t value);

int llquantize_bucket(const LlquantizeParams& p, int64_t value);
int llquantize_bucket_count(const LlquantizeParams& p);
// Lower bound of every bucket: [0] is factor^low (the bound of the "< factor^low" bucket),
// [i] for 1..count-2 the first value of bucket i, [count-1] is factor^(high+1).
std::vector<int64_t> llquantize_bucket_bounds(const LlquantizeParams& p);

// The rendering of a histogram value: the header line (starting with "\n") and one row per
// printed bucket. Counts are divided by `normal`.
std::string render_histogram(const AggregationSpec& spec, std::span<const int64_t> buckets, uint64_t normal);

// DTrace's ordering weights of a histogram: the sum of bucket value * count, and the count of
// the bucket that holds zero (0 when no bucket does).
long double histogram_weight(const AggregationSpec& spec, std::span<const int64_t> buckets);
int64_t histogram_zero_count(const AggregationSpec& spec, std::span<const int64_t> buckets);

}  // namespace dsched::output
