#include <doctest/doctest.h>

#include <stdexcept>

#include <limits>
#include <vector>

#include "output/histogram.h"

using namespace dsched::output;

namespace {

const std::string kHeader = "\n           value  ------------- Distribution ------------- count    \n";

std::string at(int n) { return std::string(size_t(n), '@'); }
std::string sp(int n) { return std::string(size_t(n), ' '); }

// A row of a histogram whose counts are all >= 0: label (16 columns), '|', bar, count.
std::string row(const std::string& label16, int depth, const std::string& count9) {
  return label16 + " |" + at(depth) + sp(40 - depth) + " " + count9 + "\n";
}

AggregationSpec spec_of(AggFunc f) {
  AggregationSpec s;
  s.function = f;
  return s;
}

AggregationSpec lquantize_spec(int64_t base, int64_t limit, int64_t step) {
  AggregationSpec s = spec_of(AggFunc::Lquantize);
  s.lquantize = {base, limit, step};
  return s;
}

AggregationSpec llquantize_spec(int64_t factor, int64_t low, int64_t high, int64_t nsteps) {
  AggregationSpec s = spec_of(AggFunc::Llquantize);
  s.llquantize = {factor, low, high, nsteps};
  return s;
}

std::vector<int64_t> quantize_counts(std::initializer_list<std::pair<int64_t, int64_t>> value_count) {
  std::vector<int64_t> b(kQuantizeBuckets, 0);
  for (auto [v, c] : value_count) b[size_t(quantize_bucket(v))] += c;
  return b;
}

}  // namespace

TEST_CASE("quantize buckets are powers of two around a zero bucket") {
  CHECK(quantize_bucket(0) == 63);
  CHECK(quantize_bucket(1) == 64);
  CHECK(quantize_bucket(2) == 65);
  CHECK(quantize_bucket(3) == 65);
  CHECK(quantize_bucket(4) == 66);
  CHECK(quantize_bucket(-1) == 62);
  CHECK(quantize_bucket(-2) == 61);
  CHECK(quantize_bucket(-3) == 61);
  CHECK(quantize_bucket(int64_t(1) << 62) == 126);
  CHECK(quantize_bucket(std::numeric_limits<int64_t>::max()) == 126);
  CHECK(quantize_bucket(-(int64_t(1) << 62)) == 0);
  CHECK(quantize_bucket(-(int64_t(1) << 62) + 1) == 1);
  CHECK(quantize_bucket(std::numeric_limits<int64_t>::min()) == 0);
  CHECK(quantize_bucket_value(0) == -(int64_t(1) << 62));
  CHECK(quantize_bucket_value(62) == -1);
  CHECK(quantize_bucket_value(63) == 0);
  CHECK(quantize_bucket_value(64) == 1);
  CHECK(quantize_bucket_value(126) == int64_t(1) << 62);
}

TEST_CASE("lquantize buckets: below base, steps, at or above the last step") {
  const LquantizeParams p{0, 10, 1};
  CHECK(lquantize_bucket(p, -1) == 0);
  CHECK(lquantize_bucket(p, 0) == 1);
  CHECK(lquantize_bucket(p, 9) == 10);
  CHECK(lquantize_bucket(p, 10) == 11);
  CHECK(lquantize_bucket(p, std::numeric_limits<int64_t>::max()) == 11);
  const LquantizeParams q{0, 10, 3};  // levels 3: [0,3) [3,6) [6,9), then >= 9
  CHECK(lquantize_bucket(q, 2) == 1);
  CHECK(lquantize_bucket(q, 3) == 2);
  CHECK(lquantize_bucket(q, 8) == 3);
  CHECK(lquantize_bucket(q, 9) == 4);
  const LquantizeParams r{-10, 10, 5};
  CHECK(lquantize_bucket(r, -11) == 0);
  CHECK(lquantize_bucket(r, -10) == 1);
  CHECK(lquantize_bucket(r, -1) == 2);
  CHECK(lquantize_bucket(r, 0) == 3);
}

TEST_CASE("llquantize buckets: log-linear steps per magnitude") {
  const LlquantizeParams p{10, 0, 2, 10};
  CHECK(llquantize_bucket_count(p) == 29);
  CHECK(llquantize_bucket(p, -5) == 0);
  CHECK(llquantize_bucket(p, 0) == 0);
  CHECK(llquantize_bucket(p, 1) == 1);
  CHECK(llquantize_bucket(p, 9) == 9);
  CHECK(llquantize_bucket(p, 10) == 10);
  CHECK(llquantize_bucket(p, 19) == 10);
  CHECK(llquantize_bucket(p, 20) == 11);
  CHECK(llquantize_bucket(p, 99) == 18);
  CHECK(llquantize_bucket(p, 100) == 19);
  CHECK(llquantize_bucket(p, 999) == 27);
  CHECK(llquantize_bucket(p, 1000) == 28);

  const LlquantizeParams q{2, 0, 3, 4};
  CHECK(llquantize_bucket_count(q) == 9);
  CHECK(llquantize_bucket_bounds(q) == std::vector<int64_t>{1, 1, 2, 3, 4, 6, 8, 12, 16});
  CHECK(llquantize_bucket(q, 5) == 4);
  CHECK(llquantize_bucket(q, 7) == 5);
  CHECK(llquantize_bucket(q, 15) == 7);
  CHECK(llquantize_bucket(q, 16) == 8);

  const LlquantizeParams r{10, 1, 2, 20};  // [10,100) in 18 buckets of 5, [100,1000) in 18 of 50
  CHECK(llquantize_bucket_count(r) == 38);
  CHECK(llquantize_bucket(r, 9) == 0);
  CHECK(llquantize_bucket(r, 14) == 1);
  CHECK(llquantize_bucket(r, 15) == 2);
  CHECK(llquantize_bucket(r, 100) == 19);
  CHECK(llquantize_bucket(r, 1000) == 37);
}

TEST_CASE("quantize rendering trims to one empty row on each side and scales bars to 40") {
  const auto b = quantize_counts({{1, 3}, {4, 1}});
  const std::string expected = kHeader + row("               0", 0, "0        ") +
                               row("               1", 30, "3        ") + row("               2", 0, "0        ") +
                               row("               4", 10, "1        ") + row("               8", 0, "0        ");
  CHECK(render_histogram(spec_of(AggFunc::Quantize), b, 1) == expected);
}

TEST_CASE("bar depth rounds to the nearest column") {
  // 1 of 3: 13.33 -> 13; 2 of 3: 26.67 -> 27.
  const auto b = quantize_counts({{8, 1}, {16, 2}});
  const std::string expected = kHeader + row("               4", 0, "0        ") +
                               row("               8", 13, "1        ") + row("              16", 27, "2        ") +
                               row("              32", 0, "0        ");
  CHECK(render_histogram(spec_of(AggFunc::Quantize), b, 1) == expected);
}

TEST_CASE("an empty quantize prints the rows -1, 0 and 1; so does one with only the top bucket") {
  const std::string expected = kHeader + row("              -1", 0, "0        ") +
                               row("               0", 0, "0        ") + row("               1", 0, "0        ");
  CHECK(render_histogram(spec_of(AggFunc::Quantize), std::vector<int64_t>(127, 0), 1) == expected);
  std::vector<int64_t> top(127, 0);
  top[126] = 5;
  CHECK(render_histogram(spec_of(AggFunc::Quantize), top, 1) == expected);
}

TEST_CASE("negative counts only: bars grow leftwards") {
  const auto b = quantize_counts({{1, -2}, {2, -2}});
  const std::string expected = kHeader + "               0 " + sp(40) + "| 0        \n" + "               1 " +
                               sp(20) + at(20) + "| -2       \n" + "               2 " + sp(20) + at(20) +
                               "| -2       \n" + "               4 " + sp(40) + "| 0        \n";
  CHECK(render_histogram(spec_of(AggFunc::Quantize), b, 1) == expected);
}

TEST_CASE("mixed signs: half bars on both sides of a centre line") {
  const auto b = quantize_counts({{1, 3}, {2, -1}});
  const std::string expected = kHeader + "               0 " + sp(20) + "|" + sp(20) + " 0        \n" +
                               "               1 " + sp(20) + "|" + at(15) + sp(5) + " 3        \n" +
                               "               2 " + sp(15) + at(5) + "|" + sp(20) + " -1       \n" +
                               "               4 " + sp(20) + "|" + sp(20) + " 0        \n";
  CHECK(render_histogram(spec_of(AggFunc::Quantize), b, 1) == expected);
}

TEST_CASE("normalization divides the printed counts, not the bars") {
  const auto b = quantize_counts({{1, 3000}, {2, 1000}});
  const std::string expected = kHeader + row("               0", 0, "0        ") +
                               row("               1", 30, "3        ") + row("               2", 10, "1        ") +
                               row("               4", 0, "0        ");
  CHECK(render_histogram(spec_of(AggFunc::Quantize), b, 1000) == expected);
}

TEST_CASE("lquantize rendering labels the outer buckets") {
  const AggregationSpec s = lquantize_spec(0, 10, 1);
  std::vector<int64_t> b(12, 0);
  b[1] = 6;
  b[2] = 2;
  const std::string expected = kHeader + row("             < 0", 0, "0        ") +
                               row("               0", 30, "6        ") + row("               1", 10, "2        ") +
                               row("               2", 0, "0        ");
  CHECK(render_histogram(s, b, 1) == expected);

  std::vector<int64_t> edges(12, 0);
  edges[0] = 1;
  edges[11] = 1;
  std::string all = kHeader + row("             < 0", 20, "1        ");
  for (int v = 0; v < 10; ++v) all += row(std::string(15, ' ') + std::to_string(v), 0, "0        ");
  all += row("           >= 10", 20, "1        ");
  CHECK(render_histogram(s, edges, 1) == all);
}

TEST_CASE("lquantize with a step that does not divide the range, a negative base, no data") {
  const AggregationSpec s = lquantize_spec(0, 10, 3);
  std::vector<int64_t> b(5, 0);
  b[4] = 2;
  CHECK(render_histogram(s, b, 1) ==
        kHeader + row("               6", 0, "0        ") + row("            >= 9", 40, "2        "));

  const AggregationSpec neg = lquantize_spec(-10, 10, 5);
  std::vector<int64_t> n(6, 0);
  n[0] = 1;
  CHECK(render_histogram(neg, n, 1) ==
        kHeader + row("           < -10", 40, "1        ") + row("             -10", 0, "0        "));
  CHECK(render_histogram(neg, std::vector<int64_t>(6, 0), 1) ==
        kHeader + row("           < -10", 0, "0        ") + row("             -10", 0, "0        ") +
            row("              -5", 0, "0        "));
}

TEST_CASE("llquantize rendering") {
  const AggregationSpec s = llquantize_spec(10, 0, 2, 10);
  std::vector<int64_t> b(29, 0);
  b[size_t(llquantize_bucket(s.llquantize, 5))] = 1;
  b[size_t(llquantize_bucket(s.llquantize, 50))] = 1;
  std::string expected = kHeader;
  const char* labels[] = {"4", "5", "6", "7", "8", "9", "10", "20", "30", "40", "50", "60"};
  for (const char* l : labels) {
    const std::string label = std::string(16 - std::string(l).size(), ' ') + l;
    const bool hit = std::string(l) == "5" || std::string(l) == "50";
    expected += row(label, hit ? 20 : 0, hit ? "1        " : "0        ");
  }
  CHECK(render_histogram(s, b, 1) == expected);

  CHECK(render_histogram(s, std::vector<int64_t>(29, 0), 1) ==
        kHeader + row("             < 1", 0, "0        ") + row("               1", 0, "0        "));
  std::vector<int64_t> high(29, 0);
  high[28] = 4;
  CHECK(render_histogram(s, high, 1) ==
        kHeader + row("             900", 0, "0        ") + row("         >= 1000", 40, "4        "));
}

TEST_CASE("a value with the wrong number of buckets is refused") {
  CHECK_THROWS_AS(render_histogram(spec_of(AggFunc::Quantize), std::vector<int64_t>(10, 0), 1),
                  std::invalid_argument);
  CHECK_THROWS_AS(render_histogram(lquantize_spec(0, 10, 1), std::vector<int64_t>(11, 0), 1), std::invalid_argument);
}

TEST_CASE("ordering weights of histograms") {
  const auto q = quantize_counts({{0, 5}, {4, 2}, {-2, 1}});
  CHECK(histogram_weight(spec_of(AggFunc::Quantize), q) == 6.0L);
  CHECK(histogram_zero_count(spec_of(AggFunc::Quantize), q) == 5);
  const AggregationSpec l = lquantize_spec(0, 10, 5);  // buckets: <0, 0, 5, >=10
  const std::vector<int64_t> lb{2, 3, 1, 1};
  CHECK(histogram_weight(l, lb) == -2.0L + 0 + 5 + 11);
  CHECK(histogram_zero_count(l, lb) == 3);
}
