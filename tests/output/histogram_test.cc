#include <doctest/doctest.h>

#include <limits>
#include <vector>

#include "aggregation_support.h"

using namespace dsched::test;
using dsched::abi::AggregationSpec;

namespace {

const std::string kHeader = "\n           value  ------------- Distribution ------------- count    \n";

std::string at(int n) { return std::string(size_t(n), '@'); }
std::string sp(int n) { return std::string(size_t(n), ' '); }

// A row of a histogram whose counts are all >= 0: label (16 columns), '|', bar, count.
std::string row(const std::string& label16, int depth, const std::string& count9) {
  return label16 + " |" + at(depth) + sp(40 - depth) + " " + count9 + "\n";
}

// A function, not a global: the descriptors register themselves while the program starts.
const AggregationSpec& quantize_spec() {
  static const AggregationSpec spec = spec_of("quantize");
  return spec;
}

size_t quantize_bucket(int64_t v) { return bucket(quantize_spec(), v); }

std::vector<int64_t> quantize_counts(std::initializer_list<std::pair<int64_t, int64_t>> value_count) {
  std::vector<int64_t> b(127, 0);
  for (auto [v, c] : value_count) b[quantize_bucket(v)] += c;
  return b;
}

// The value words of a histogram with one count per row, in order.
std::vector<int64_t> order_of(const AggregationSpec& s, const std::vector<int64_t>& words) {
  return {static_cast<int64_t>(s.function->order_key(s.params, words).primary),
          s.function->order_key(s.params, words).secondary};
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
  // Each bucket prints its lower bound.
  std::vector<int64_t> all(127, 1);
  auto rows = quantize_spec().function->value({}, all, 1).rows;
  REQUIRE(rows.size() == 127);
  CHECK(rows[0].value == -(int64_t(1) << 62));
  CHECK(rows[62].value == -1);
  CHECK(rows[63].value == 0);
  CHECK(rows[64].value == 1);
  CHECK(rows[126].value == int64_t(1) << 62);
}

TEST_CASE("lquantize buckets: below base, steps, at or above the last step") {
  const AggregationSpec p = spec_of("lquantize", {0, 10, 1});
  CHECK(bucket(p, -1) == 0);
  CHECK(bucket(p, 0) == 1);
  CHECK(bucket(p, 9) == 10);
  CHECK(bucket(p, 10) == 11);
  CHECK(bucket(p, std::numeric_limits<int64_t>::max()) == 11);
  const AggregationSpec q = spec_of("lquantize", {0, 10, 3});  // levels 3: [0,3) [3,6) [6,9), then >= 9
  CHECK(bucket(q, 2) == 1);
  CHECK(bucket(q, 3) == 2);
  CHECK(bucket(q, 8) == 3);
  CHECK(bucket(q, 9) == 4);
  const AggregationSpec r = spec_of("lquantize", {-10, 10, 5});
  CHECK(bucket(r, -11) == 0);
  CHECK(bucket(r, -10) == 1);
  CHECK(bucket(r, -1) == 2);
  CHECK(bucket(r, 0) == 3);
}

TEST_CASE("llquantize buckets: log-linear steps per magnitude") {
  const AggregationSpec p = spec_of("llquantize", {10, 0, 2, 10});
  CHECK(p.value_words() == 29);
  CHECK(bucket(p, -5) == 0);
  CHECK(bucket(p, 0) == 0);
  CHECK(bucket(p, 1) == 1);
  CHECK(bucket(p, 9) == 9);
  CHECK(bucket(p, 10) == 10);
  CHECK(bucket(p, 19) == 10);
  CHECK(bucket(p, 20) == 11);
  CHECK(bucket(p, 99) == 18);
  CHECK(bucket(p, 100) == 19);
  CHECK(bucket(p, 999) == 27);
  CHECK(bucket(p, 1000) == 28);

  const AggregationSpec q = spec_of("llquantize", {2, 0, 3, 4});
  CHECK(q.value_words() == 9);
  std::vector<int64_t> bounds;
  for (const auto& row : q.function->value(q.params, std::vector<int64_t>(9, 1), 1).rows) bounds.push_back(row.value);
  CHECK(bounds == std::vector<int64_t>{1, 1, 2, 3, 4, 6, 8, 12, 16});
  CHECK(bucket(q, 5) == 4);
  CHECK(bucket(q, 7) == 5);
  CHECK(bucket(q, 15) == 7);
  CHECK(bucket(q, 16) == 8);

  const AggregationSpec r = spec_of("llquantize", {10, 1, 2, 20});  // [10,100) in 18 buckets of 5, [100,1000) in 18 of 50
  CHECK(r.value_words() == 38);
  CHECK(bucket(r, 9) == 0);
  CHECK(bucket(r, 14) == 1);
  CHECK(bucket(r, 15) == 2);
  CHECK(bucket(r, 100) == 19);
  CHECK(bucket(r, 1000) == 37);
}

TEST_CASE("quantize rendering trims to one empty row on each side and scales bars to 40") {
  const auto b = quantize_counts({{1, 3}, {4, 1}});
  const std::string expected = kHeader + row("               0", 0, "0        ") +
                               row("               1", 30, "3        ") + row("               2", 0, "0        ") +
                               row("               4", 10, "1        ") + row("               8", 0, "0        ");
  CHECK(render(quantize_spec(), b, 1) == expected);
}

TEST_CASE("bar depth rounds to the nearest column") {
  // 1 of 3: 13.33 -> 13; 2 of 3: 26.67 -> 27.
  const auto b = quantize_counts({{8, 1}, {16, 2}});
  const std::string expected = kHeader + row("               4", 0, "0        ") +
                               row("               8", 13, "1        ") + row("              16", 27, "2        ") +
                               row("              32", 0, "0        ");
  CHECK(render(quantize_spec(), b, 1) == expected);
}

TEST_CASE("an empty quantize prints the rows -1, 0 and 1; so does one with only the top bucket") {
  const std::string expected = kHeader + row("              -1", 0, "0        ") +
                               row("               0", 0, "0        ") + row("               1", 0, "0        ");
  CHECK(render(quantize_spec(), std::vector<int64_t>(127, 0), 1) == expected);
  std::vector<int64_t> top(127, 0);
  top[126] = 5;
  CHECK(render(quantize_spec(), top, 1) == expected);
}

TEST_CASE("negative counts only: bars grow leftwards") {
  const auto b = quantize_counts({{1, -2}, {2, -2}});
  const std::string expected = kHeader + "               0 " + sp(40) + "| 0        \n" + "               1 " +
                               sp(20) + at(20) + "| -2       \n" + "               2 " + sp(20) + at(20) +
                               "| -2       \n" + "               4 " + sp(40) + "| 0        \n";
  CHECK(render(quantize_spec(), b, 1) == expected);
}

TEST_CASE("mixed signs: half bars on both sides of a centre line") {
  const auto b = quantize_counts({{1, 3}, {2, -1}});
  const std::string expected = kHeader + "               0 " + sp(20) + "|" + sp(20) + " 0        \n" +
                               "               1 " + sp(20) + "|" + at(15) + sp(5) + " 3        \n" +
                               "               2 " + sp(15) + at(5) + "|" + sp(20) + " -1       \n" +
                               "               4 " + sp(20) + "|" + sp(20) + " 0        \n";
  CHECK(render(quantize_spec(), b, 1) == expected);
}

TEST_CASE("normalization divides the printed counts, not the bars") {
  const auto b = quantize_counts({{1, 3000}, {2, 1000}});
  const std::string expected = kHeader + row("               0", 0, "0        ") +
                               row("               1", 30, "3        ") + row("               2", 10, "1        ") +
                               row("               4", 0, "0        ");
  CHECK(render(quantize_spec(), b, 1000) == expected);
}

TEST_CASE("lquantize rendering labels the outer buckets") {
  const AggregationSpec s = spec_of("lquantize", {0, 10, 1});
  std::vector<int64_t> b(12, 0);
  b[1] = 6;
  b[2] = 2;
  const std::string expected = kHeader + row("             < 0", 0, "0        ") +
                               row("               0", 30, "6        ") + row("               1", 10, "2        ") +
                               row("               2", 0, "0        ");
  CHECK(render(s, b, 1) == expected);

  std::vector<int64_t> edges(12, 0);
  edges[0] = 1;
  edges[11] = 1;
  std::string all = kHeader + row("             < 0", 20, "1        ");
  for (int v = 0; v < 10; ++v) all += row(std::string(15, ' ') + std::to_string(v), 0, "0        ");
  all += row("           >= 10", 20, "1        ");
  CHECK(render(s, edges, 1) == all);
}

TEST_CASE("lquantize with a step that does not divide the range, a negative base, no data") {
  const AggregationSpec s = spec_of("lquantize", {0, 10, 3});
  std::vector<int64_t> b(5, 0);
  b[4] = 2;
  CHECK(render(s, b, 1) ==
        kHeader + row("               6", 0, "0        ") + row("            >= 9", 40, "2        "));

  const AggregationSpec neg = spec_of("lquantize", {-10, 10, 5});
  std::vector<int64_t> n(6, 0);
  n[0] = 1;
  CHECK(render(neg, n, 1) ==
        kHeader + row("           < -10", 40, "1        ") + row("             -10", 0, "0        "));
  CHECK(render(neg, std::vector<int64_t>(6, 0), 1) ==
        kHeader + row("           < -10", 0, "0        ") + row("             -10", 0, "0        ") +
            row("              -5", 0, "0        "));
}

TEST_CASE("llquantize rendering") {
  const AggregationSpec s = spec_of("llquantize", {10, 0, 2, 10});
  std::vector<int64_t> b(29, 0);
  b[bucket(s, 5)] = 1;
  b[bucket(s, 50)] = 1;
  std::string expected = kHeader;
  const char* labels[] = {"4", "5", "6", "7", "8", "9", "10", "20", "30", "40", "50", "60"};
  for (const char* l : labels) {
    const std::string label = std::string(16 - std::string(l).size(), ' ') + l;
    const bool hit = std::string(l) == "5" || std::string(l) == "50";
    expected += row(label, hit ? 20 : 0, hit ? "1        " : "0        ");
  }
  CHECK(render(s, b, 1) == expected);

  CHECK(render(s, std::vector<int64_t>(29, 0), 1) ==
        kHeader + row("             < 1", 0, "0        ") + row("               1", 0, "0        "));
  std::vector<int64_t> high(29, 0);
  high[28] = 4;
  CHECK(render(s, high, 1) ==
        kHeader + row("             900", 0, "0        ") + row("         >= 1000", 40, "4        "));
}

TEST_CASE("ordering weights of histograms") {
  const auto q = quantize_counts({{0, 5}, {4, 2}, {-2, 1}});
  CHECK(order_of(quantize_spec(), q) == std::vector<int64_t>{6, 5});
  const AggregationSpec l = spec_of("lquantize", {0, 10, 5});  // buckets: <0, 0, 5, >=10
  const std::vector<int64_t> lb{2, 3, 1, 1};
  CHECK(order_of(l, lb) == std::vector<int64_t>{-2 + 0 + 5 + 11, 3});
}
