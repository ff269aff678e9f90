#include "agg_values.h"

namespace dsched::output {

namespace {

using u128 = unsigned __int128;

// floor(sqrt(v)), bit by bit from the top.
uint64_t isqrt128(u128 v) {
  u128 result = 0;
  u128 bit = u128(1) << 126;
  while (bit > v) bit >>= 2;
  while (bit != 0) {
    if (v >= result + bit) {
      v -= result + bit;
      result = (result >> 1) + bit;
    } else {
      result >>= 1;
    }
    bit >>= 2;
  }
  return uint64_t(result);
}

}  // namespace

int64_t avg_value(std::span<const int64_t> value, uint64_t normal) {
  const int64_t sum = value[0], count = value[1];
  return count == 0 ? 0 : sum / int64_t(normal) / count;
}

uint64_t stddev_value(std::span<const int64_t> value, uint64_t normal) {
  const uint64_t count = uint64_t(value[0]);
  if (count == 0) return 0;
  const u128 sumsq = (u128(uint64_t(value[3])) << 64) | uint64_t(value[2]);
  // The mean of the squares (normalized twice, as the squares are) minus the square of the mean.
  const u128 mean_of_squares = sumsq / normal / normal / count;
  const int64_t mean = value[1] / int64_t(normal) / int64_t(count);
  const uint64_t abs_mean = mean < 0 ? 0 - uint64_t(mean) : uint64_t(mean);
  const u128 square_of_mean = u128(abs_mean) * abs_mean;
  return isqrt128(mean_of_squares - square_of_mean);
}

int64_t scalar_value(AggFunc f, std::span<const int64_t> value, uint64_t normal) {
  switch (f) {
    case AggFunc::Avg: return avg_value(value, normal);
    case AggFunc::Stddev: return int64_t(stddev_value(value, normal));
    case AggFunc::Count: return int64_t(uint64_t(value[0]) / normal);
    default: return value[0] / int64_t(normal);
  }
}

bool scalar_is_unsigned(AggFunc f) { return f == AggFunc::Count || f == AggFunc::Stddev; }

}  // namespace dsched::output
