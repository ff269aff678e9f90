// The numbers that scalar aggregations print, with normalization applied as DTrace applies
// it: count/sum/min/max print value / normal; avg prints (sum / normal) / count; stddev the
// integer population standard deviation from the 128-bit sum of squares.
#pragma once

#include <cstdint>
#include <span>

#include "aggregation.h"

namespace dsched::output {

int64_t avg_value(std::span<const int64_t> value, uint64_t normal);
uint64_t stddev_value(std::span<const int64_t> value, uint64_t normal);

// The printed number of a scalar (non-histogram) aggregation value; count() and stddev()
// are unsigned quantities, the others signed (the bits are returned either way).
int64_t scalar_value(AggFunc f, std::span<const int64_t> value, uint64_t normal);
bool scalar_is_unsigned(AggFunc f);

}  // namespace dsched::output
