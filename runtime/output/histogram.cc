#include "histogram.h"

#include <algorithm>

#include "cformat.h"

namespace dsched::output {
namespace {

constexpr int kBarWidth = 40;

std::string bar_line(int64_t count, uint64_t normal, long double total, bool positives, bool negatives) {
  const int64_t shown = count / int64_t(normal);
  auto depth_for = [&](int len) {
    const long double magnitude = count < 0 ? -(long double)count : (long double)count;
    return int(magnitude * len / total + 0.5L);
  };
  if (!negatives) {
    const int depth = positives ? depth_for(kBarWidth) : 0;
    return "|" + std::string(depth, '@') + std::string(kBarWidth - depth, ' ') + cformat(" %-9lld\n", (long long)shown);
  }
  if (!positives) {
    const int depth = depth_for(kBarWidth);
    return std::string(kBarWidth - depth, ' ') + std::string(depth, '@') + cformat("| %-9lld\n", (long long)shown);
  }
  const int half = kBarWidth / 2;
  const int depth = depth_for(half);
  if (count <= 0)
    return std::string(half - depth, ' ') + std::string(depth, '@') + "|" + std::string(half, ' ') +
           cformat(" %-9lld\n", (long long)shown);
  return std::string(half, ' ') + "|" + std::string(depth, '@') + std::string(half - depth, ' ') +
         cformat(" %-9lld\n", (long long)shown);
}

}  // namespace

std::string render_histogram(const abi::AggValue& value, bool zoom) {
  constexpr long double kZoomedShare = 0.95L;
  long double total = 0;
  bool positives = false, negatives = false;
  for (const abi::HistogramRow& row : value.rows) {
    positives |= row.count > 0;
    negatives |= row.count < 0;
    const long double magnitude = row.count < 0 ? -(long double)row.count : (long double)row.count;
    total = zoom ? std::max(total, magnitude / kZoomedShare) : total + magnitude;
  }
  std::string out = cformat("\n%16s %41s %-9s\n", "value", "------------- Distribution -------------", "count");
  for (const abi::HistogramRow& row : value.rows) {
    out += row.label.empty() ? cformat("%16lld ", (long long)row.value) : cformat("%16s ", row.label.c_str());
    out += bar_line(row.count, value.normal, total, positives, negatives);
  }
  return out;
}

}  // namespace dsched::output
