// DTrace's rendering of a histogram value (quantize, lquantize, llquantize): a header line, then
// one row per bucket the aggregating function chose to print, each with a 40-column bar.
#pragma once

#include <string>

#include "abi/aggregation.h"

namespace dsched::output {

// The header line (starting with "\n") and the rows. Counts print divided by value.normal; bars
// are drawn from the counts, as shares of their sum, or with `zoom` (aggzoom) of the largest
// count, whose bar then fills 95% of the width. When the rows hold both signs, negative counts
// grow left and positive counts right from a centre line, 20 columns each.
std::string render_histogram(const abi::AggValue& value, bool zoom = false);

}  // namespace dsched::output
