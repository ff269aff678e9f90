// Replays conformance scripts through the output engine, as the runtime will once the
// compiler exists: each aggregating action becomes one merge() of a one-CPU value, END's
// actions become calls, and the result must equal the hand-written .out file byte for byte.
#include <doctest/doctest.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <vector>

#include "output/agg_print.h"
#include "aggregation_support.h"
#include "output/printf_render.h"
#include "output/probe_lines.h"

using namespace dsched::abi;
using namespace dsched::output;
using dsched::printf_spec::parse_format;

namespace {

std::string expected(const std::string& name) {
  std::ifstream in(std::string(DSCHED_CONFORMANCE_DIR) + "/" + name + ".out");
  REQUIRE(in.good());
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

constexpr unsigned kStrsize = 256;

// The aggregations of one script, in id order.
class Script {
 public:
  Aggregation& agg(const char* function, std::vector<KeyComponent> keys = {}, std::vector<int64_t> params = {}) {
    AggregationSpec s = dsched::test::spec_of(function, std::move(params), std::move(keys), uint32_t(aggs_.size() + 1));
    s.name.clear();
    aggs_.push_back(std::make_unique<Aggregation>(s));
    return *aggs_.back();
  }
  std::string end(const SortOptions& o = {}) {
    std::vector<const Aggregation*> all;
    for (auto& a : aggs_) all.push_back(a.get());
    return print_end_of_run(all, o);
  }

 private:
  std::vector<std::unique_ptr<Aggregation>> aggs_;
};

std::span<const uint8_t> span_of(const std::string& s) { return {reinterpret_cast<const uint8_t*>(s.data()), s.size()}; }

void record(Aggregation& a, const std::string& key, std::vector<int64_t> one_cpu) {
  std::vector<uint64_t> w(one_cpu.begin(), one_cpu.end());
  a.merge(span_of(key), w);
}

// One histogram update: `incr` in the bucket of `v`.
void histogram(Aggregation& a, const std::string& key, int64_t v, int64_t incr = 1) {
  std::vector<int64_t> words(a.spec().value_words(), 0);
  words[dsched::test::bucket(a.spec(), v)] = incr;
  record(a, key, words);
}

void quantize(Aggregation& a, const std::string& key, int64_t v, int64_t incr = 1) { histogram(a, key, v, incr); }
void lquantize(Aggregation& a, const std::string& key, int64_t v) { histogram(a, key, v); }
void llquantize(Aggregation& a, int64_t v) { histogram(a, "", v); }

std::string str(std::string_view s) { return KeyBuilder().string(s, kStrsize).bytes(); }
std::string num(int64_t v) { return KeyBuilder().integer(v).bytes(); }
const KeyComponent kInt = KeyComponent::integer(4, true);
const KeyComponent kStr = KeyComponent::string(kStrsize);

std::string printf_line(std::string_view fmt, std::vector<Value> args) {
  const auto f = parse_format(fmt);
  REQUIRE(f.ok());
  return render_format(f.format, args);
}

Value i32(int64_t v) { return Value::integer(v, 4, true); }

}  // namespace

TEST_CASE("scalar functions") {
  {
    Script s;
    Aggregation& a = s.agg("sum");
    for (int64_t v : {10, -3, 25}) record(a, "", {v});
    CHECK(s.end() == expected("sum_keyless"));
  }
  {
    Script s;
    Aggregation& lo = s.agg("min");
    Aggregation& hi = s.agg("max");
    for (int64_t v : {5, -2, 9}) record(lo, "", {v, 1});
    for (int64_t v : {5, -2, 9}) record(hi, "", {v, 1});
    CHECK(s.end() == expected("min_max"));
  }
  {
    Script s;
    Aggregation& a = s.agg("avg");
    for (int64_t v : {-7, 0}) record(a, "", {v, 1});
    CHECK(s.end() == expected("avg_negative"));
  }
  {
    Script s;
    Aggregation& a = s.agg("stddev");
    for (int64_t v : {2, 4, 4, 4, 5, 5, 7, 9}) record(a, "", {1, v, v * v, 0});
    CHECK(s.end() == expected("stddev_keyless"));
  }
}

TEST_CASE("keys and ordering") {
  {
    Script s;
    Aggregation& a = s.agg("count", {kStr});
    for (const char* k : {"b", "a", "c", "b", "a"}) record(a, str(k), {1});
    CHECK(s.end() == expected("string_keys"));
  }
  {
    Script s;
    Aggregation& a = s.agg("count", {kInt, kStr});
    record(a, num(1) + str("x"), {1});
    record(a, num(2) + str("a"), {1});
    record(a, num(1) + str("x"), {1});
    CHECK(s.end() == expected("tuple_keys"));
  }
  for (auto [name, options] : {std::pair{"int_keys", SortOptions{}},
                               std::pair{"sort_aggsortkey", SortOptions{.by_key = true}},
                               std::pair{"sort_aggsortrev", SortOptions{.reverse = true}},
                               std::pair{"sort_aggsortkey_rev", SortOptions{.by_key = true, .reverse = true}}}) {
    Script s;
    Aggregation& a = s.agg("sum", {kInt});
    record(a, num(1), {5});
    record(a, num(2), {1});
    record(a, num(3), {3});
    INFO(name);
    CHECK(s.end(options) == expected(name));
  }
  {
    Script s;
    Aggregation& a = s.agg("count", {kInt, kInt});
    for (auto [k1, k2] : {std::pair{1, 9}, std::pair{2, 8}, std::pair{3, 7}}) record(a, num(k1) + num(k2), {1});
    CHECK(s.end({.by_key = true, .key_position = 1}) == expected("sort_aggsortkeypos"));
  }
}

TEST_CASE("histograms") {
  {
    Script s;
    Aggregation& a = s.agg("quantize");
    quantize(a, "", 1, 3);
    quantize(a, "", 2, -1);
    CHECK(s.end() == expected("quantize_mixed_sign"));
  }
  {
    Script s;
    Aggregation& a = s.agg("quantize");
    for (int64_t v : {0, -1, -5, 0}) quantize(a, "", v);
    CHECK(s.end() == expected("quantize_zero_negative"));
  }
  {
    Script s;
    Aggregation& a = s.agg("lquantize", {kStr}, {0, 5, 1});
    lquantize(a, str("b"), 3);
    lquantize(a, str("a"), 2);
    lquantize(a, str("b"), 3);
    CHECK(s.end() == expected("lquantize_keys"));
  }
  {
    Script s;
    Aggregation& a = s.agg("lquantize", {}, {0, 100, 25});
    for (int64_t v : {30, 60, 99}) lquantize(a, "", v);
    CHECK(s.end() == expected("lquantize_step"));
  }
  {
    Script s;
    Aggregation& a = s.agg("llquantize", {}, {2, 0, 1, 2});
    llquantize(a, -3);
    llquantize(a, 7);
    CHECK(s.end() == expected("llquantize_small"));
  }
  {
    Script s;
    Aggregation& a = s.agg("llquantize", {}, {10, 0, 2, 10});
    llquantize(a, 5);
    llquantize(a, 50);
    CHECK(s.end() == expected("llquantize_decades"));
  }
  {
    Script s;
    Aggregation& sum = s.agg("sum");
    Aggregation& q = s.agg("quantize");
    for (int64_t n = 1; n <= 4; ++n) {
      record(sum, "", {n});
      quantize(q, "", n);
    }
    CHECK(s.end() == expected("tick_sum_quantize"));
  }
}

TEST_CASE("printa, normalize, trunc, clear") {
  {
    Script s;
    Aggregation& a = s.agg("sum", {kInt});
    record(a, num(1), {2000});
    record(a, num(2), {5000});
    record(a, num(3), {1000});
    a.normalize(1000);
    Aggregation* one[] = {&a};
    const std::string out = printa_formatted(parse_format("%3d %@d\n").format, one, {});
    CHECK(out + s.end() == expected("printa_format"));
  }
  for (auto [name, pos] : {std::pair{"printa_multi", size_t(0)}, std::pair{"printa_aggsortpos", size_t(1)}}) {
    Script s;
    Aggregation& c = s.agg("count", {kInt});
    Aggregation& sum = s.agg("sum", {kInt});
    record(c, num(1), {1});
    record(c, num(2), {1});
    record(c, num(2), {1});
    record(sum, num(1), {100});
    record(sum, num(3), {7});
    Aggregation* both[] = {&c, &sum};
    const std::string out =
        printa_formatted(parse_format("%d %@d %@d\n").format, both, {.aggregation_position = pos});
    INFO(name);
    CHECK(out + s.end() == expected(name));
  }
  {
    Script s;
    Aggregation& a = s.agg("sum");
    record(a, "", {5000});
    Aggregation* one[] = {&a};
    a.normalize(1000);
    std::string out = printa_plain(one, {});
    a.denormalize();
    out += printa_plain(one, {});
    CHECK(out + s.end() == expected("normalize_denormalize"));
  }
  {
    Script s;
    Aggregation& a = s.agg("lquantize", {kStr}, {0, 2, 1});
    lquantize(a, str("k"), 1);
    Aggregation* one[] = {&a};
    const std::string out = printa_formatted(parse_format("key %s%@d\n").format, one, {});
    CHECK(out + s.end() == expected("printa_histogram"));
  }
  {
    Script s;
    Aggregation& a = s.agg("sum", {kInt});
    for (int64_t k = 1; k <= 4; ++k) record(a, num(k), {k});
    a.trunc(2);
    CHECK(s.end() == expected("trunc_top"));
  }
  {
    Script s;
    Aggregation& a = s.agg("sum", {kInt});
    for (int64_t n = 1; n <= 3; ++n) record(a, num(n), {n * 10});
    a.clear();
    CHECK(s.end() == expected("clear_keys"));
  }
}

TEST_CASE("printf and trace lines") {
  Script none;
  CHECK(printf_line("%d|%5d|%-5d|%05d|%x|%X|%o|%u\n",
                    {i32(42), i32(42), i32(42), i32(42), i32(255), i32(255), i32(8), i32(7)}) +
            none.end() ==
        expected("printf_integers"));
  CHECK(printf_line("[%*d] [%-*d] [%.*s]\n",
                    {i32(6), i32(42), i32(6), i32(42), i32(3), Value::string("abcdef")}) +
            none.end() ==
        expected("printf_star"));
  CHECK(printf_line("%d %d %x %x\n", {Value::integer(1099511627776, 8), i32(-1), i32(-1), i32(255)}) + none.end() ==
        expected("printf_64bit"));
  CHECK(printf_line("100%% done\tok\n", {}) + printf_line("%S\n", {Value::string("a\tb")}) + none.end() ==
        expected("printf_escapes"));
  CHECK(render_trace(Value::string("hello"), true) + render_trace(i32(42), true) + printf_line("\n", {}) +
            none.end() ==
        expected("trace_quiet"));
}
