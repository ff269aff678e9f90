#include "histogram.h"

#include <cstdio>
#include <functional>
#include <stdexcept>

#include "cformat.h"

namespace dsched::output {

namespace {

constexpr int kBarWidth = 40;

int floor_log2(uint64_t v) { return 63 - __builtin_clzll(v); }

// The first and last bucket rows to print.
struct RowRange {
  int first;
  int last;
};

// One zero row around the data on each side; `when_empty` when no bucket before `scan_end`
// holds data.
RowRange row_range(std::span<const int64_t> data, int scan_end, RowRange when_empty) {
  const int n = int(data.size());
  int first = 0;
  while (first < scan_end && data[first] == 0) ++first;
  if (first == scan_end) return when_empty;
  if (first > 0) --first;
  int last = n - 1;
  while (last > 0 && data[last] == 0) --last;
  if (last < n - 1) ++last;
  return {first, last};
}

// One histogram row after its label: the bar and the count. Bars are 40 columns; when the
// printed rows hold both signs, negative counts grow left and positive counts right from a
// centre line, 20 columns each.
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

std::string render_rows(std::span<const int64_t> data, RowRange rows, uint64_t normal,
                        const std::function<std::string(int)>& label) {
  long double total = 0;
  bool positives = false, negatives = false;
  for (int i = rows.first; i <= rows.last; ++i) {
    positives |= data[i] > 0;
    negatives |= data[i] < 0;
    total += data[i] < 0 ? -(long double)data[i] : (long double)data[i];
  }
  std::string out = cformat("\n%16s %41s %-9s\n", "value", "------------- Distribution -------------", "count");
  for (int i = rows.first; i <= rows.last; ++i) out += label(i) + bar_line(data[i], normal, total, positives, negatives);
  return out;
}

void require_size(std::span<const int64_t> data, size_t n) {
  if (data.size() != n) throw std::invalid_argument("histogram value has " + std::to_string(data.size()) +
                                                    " buckets, expected " + std::to_string(n));
}

}  // namespace

int quantize_bucket(int64_t value) {
  if (value == 0) return kQuantizeZeroBucket;
  if (value > 0) return kQuantizeZeroBucket + 1 + floor_log2(uint64_t(value));
  const int k = std::min(floor_log2(0 - uint64_t(value)), 62);
  return kQuantizeZeroBucket - 1 - k;
}

int64_t quantize_bucket_value(int index) {
  if (index < kQuantizeZeroBucket) return -(int64_t(1) << (kQuantizeZeroBucket - 1 - index));
  if (index == kQuantizeZeroBucket) return 0;
  return int64_t(1) << (index - kQuantizeZeroBucket - 1);
}

int lquantize_bucket(const LquantizeParams& p, int64_t value) {
  if (value < p.base) return 0;
  const __int128 offset = (__int128(value) - p.base) / p.step;
  const int64_t levels = p.levels();
  return offset >= levels ? int(levels + 1) : int(offset + 1);
}

int llquantize_bucket(const LlquantizeParams& p, int64_t value) {
  int64_t bound = 1;
  for (int64_t m = 0; m < p.low; ++m) bound *= p.factor;
  if (value < bound) return 0;
  int64_t last = bound;
  int64_t top = bound * p.factor;
  int base = 1;
  for (int64_t m = p.low; m <= p.high; ++m) {
    const int64_t nbuckets = top > p.nsteps ? p.nsteps : top;
    if (value < top) return base + int((value - last) / (top / nbuckets));
    base += int(nbuckets - nbuckets / p.factor);
    last = top;
    if (m < p.high) top *= p.factor;
  }
  return base;
}

int llquantize_bucket_count(const LlquantizeParams& p) {
  int count = 2;  // the "< factor^low" and ">= factor^(high+1)" buckets
  int64_t top = 1;
  for (int64_t m = 0; m <= p.low; ++m) top *= p.factor;
  for (int64_t m = p.low; m <= p.high; ++m) {
    const int64_t nbuckets = top > p.nsteps ? p.nsteps : top;
    count += int(nbuckets - nbuckets / p.factor);
    if (m < p.high) top *= p.factor;
  }
  return count;
}

std::vector<int64_t> llquantize_bucket_bounds(const LlquantizeParams& p) {
  int64_t value = 1;
  for (int64_t m = 0; m < p.low; ++m) value *= p.factor;
  std::vector<int64_t> bounds{value};
  for (int64_t m = p.low; m <= p.high; ++m) {
    const int64_t next = value * p.factor;
    const int64_t step = next > p.nsteps ? next / p.nsteps : 1;
    for (; value < next; value += step) bounds.push_back(value);
    value = next;
  }
  bounds.push_back(value);
  return bounds;
}

std::string render_histogram(const AggregationSpec& spec, std::span<const int64_t> data, uint64_t normal) {
  switch (spec.function) {
    case AggFunc::Quantize: {
      require_size(data, kQuantizeBuckets);
      // A value in the top bucket alone reads as "no data", as in DTrace.
      const RowRange rows = row_range(data, kQuantizeBuckets - 1, {kQuantizeZeroBucket - 1, kQuantizeZeroBucket + 1});
      return render_rows(data, rows, normal,
                         [](int i) { return cformat("%16lld ", (long long)quantize_bucket_value(i)); });
    }
    case AggFunc::Lquantize: {
      const LquantizeParams& p = spec.lquantize;
      const int levels = int(p.levels());
      require_size(data, size_t(levels + 2));
      const RowRange rows = row_range(data, levels + 2, {0, 2});
      return render_rows(data, rows, normal, [&](int i) {
        if (i == 0) return cformat("%16s ", cformat("< %d", int(p.base)).c_str());
        if (i == levels + 1) return cformat("%16s ", cformat(">= %d", int(p.base + levels * p.step)).c_str());
        return cformat("%16d ", int(p.base + (i - 1) * p.step));
      });
    }
    case AggFunc::Llquantize: {
      const std::vector<int64_t> bounds = llquantize_bucket_bounds(spec.llquantize);
      const int n = int(bounds.size());
      require_size(data, size_t(n));
      const RowRange rows = row_range(data, n, {0, 1});
      return render_rows(data, rows, normal, [&](int i) {
        if (i == 0) return cformat("%16s ", cformat("< %lld", (long long)bounds[0]).c_str());
        if (i == n - 1) return cformat("%16s ", cformat(">= %lld", (long long)bounds[i]).c_str());
        return cformat("%16lld ", (long long)bounds[i]);
      });
    }
    default:
      throw std::invalid_argument("render_histogram: " + std::string(agg_func_name(spec.function)) +
                                  " is not a histogram");
  }
}

long double histogram_weight(const AggregationSpec& spec, std::span<const int64_t> data) {
  long double total = 0;
  switch (spec.function) {
    case AggFunc::Quantize:
      for (size_t i = 0; i < data.size(); ++i) total += (long double)quantize_bucket_value(int(i)) * data[i];
      return total;
    case AggFunc::Lquantize: {
      const LquantizeParams& p = spec.lquantize;
      const int64_t levels = p.levels();
      total += (long double)data[0] * (p.base - 1);
      for (int64_t i = 1; i <= levels; ++i) total += (long double)data[i] * (p.base + (i - 1) * p.step);
      return total + (long double)data[levels + 1] * (p.base + levels * p.step + 1);
    }
    case AggFunc::Llquantize: {
      const std::vector<int64_t> bounds = llquantize_bucket_bounds(spec.llquantize);
      total += (long double)data[0] * (bounds[0] - 1);
      for (size_t i = 1; i < bounds.size(); ++i) total += (long double)data[i] * bounds[i];
      return total;
    }
    default:
      return 0;
  }
}

int64_t histogram_zero_count(const AggregationSpec& spec, std::span<const int64_t> data) {
  switch (spec.function) {
    case AggFunc::Quantize:
      return data[kQuantizeZeroBucket];
    case AggFunc::Lquantize: {
      const LquantizeParams& p = spec.lquantize;
      const int64_t levels = p.levels();
      if (p.base - 1 == 0) return data[0];
      for (int64_t i = 1; i <= levels; ++i)
        if (p.base + (i - 1) * p.step == 0) return data[i];
      if (p.base + levels * p.step + 1 == 0) return data[levels + 1];
      return 0;
    }
    case AggFunc::Llquantize:
      // Zero falls in the "< factor^low" bucket only when that bound is 1.
      return spec.llquantize.low == 0 ? data[0] : 0;
    default:
      return 0;
  }
}

}  // namespace dsched::output
