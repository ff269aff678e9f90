#include <doctest/doctest.h>

#include <stdexcept>

#include <vector>

#include "abi/aggregation_order.h"
#include "aggregation_support.h"

using namespace dsched::abi;
using dsched::test::spec_of;

namespace {

AggregationSpec spec(const char* function, std::vector<KeyComponent> keys = {}) {
  return spec_of(function, {}, std::move(keys));
}

// The printed number of a scalar aggregation's value.
int64_t printed(const char* function, std::vector<int64_t> words, uint64_t normal) {
  return spec(function).function->value({}, words, normal).number;
}

std::vector<uint64_t> words(std::initializer_list<int64_t> v) {
  std::vector<uint64_t> out;
  for (int64_t x : v) out.push_back(uint64_t(x));
  return out;
}

std::span<const uint8_t> no_key() { return {}; }

}  // namespace

TEST_CASE("key and value sizes follow the map layout") {
  const AggregationSpec s =
      spec("count", {KeyComponent::integer(4, true), KeyComponent::string(32), KeyComponent::integer(1, false)});
  CHECK(s.key_size() == 8 + 32 + 8);
  CHECK(spec("sum").value_words() == 1);
  CHECK(spec("min").value_words() == 2);
  CHECK(spec("avg").value_words() == 2);
  CHECK(spec("stddev").value_words() == 4);
  CHECK(spec("quantize").value_words() == 127);
  CHECK(spec_of("lquantize", {0, 100, 10}).value_words() == 12);
  CHECK(spec_of("llquantize", {10, 0, 2, 10}).value_words() == 29);
}

TEST_CASE("keys of integers of at most 4 bytes packed in 4 bytes each read back with their size and signedness") {
  const AggregationSpec s = spec("count", {KeyComponent::integer(1, true, 4), KeyComponent::integer(2, false, 4),
                                           KeyComponent::integer(4, true, 4)});
  CHECK(s.key_size() == 12);
  const std::string key = KeyBuilder().integer(-1, 4).integer(65535, 4).integer(-5, 4).bytes();
  REQUIRE(key.size() == 12);
  CHECK(key_offset(s, 2) == 8);
  CHECK(key_integer(s, key, 0) == -1);
  CHECK(key_integer(s, key, 1) == 65535);
  CHECK(key_integer(s, key, 2) == -5);
  // Ties sort by key as unsigned: -1 (255 as a char) after 1.
  const std::string one = KeyBuilder().integer(1, 4).integer(65535, 4).integer(-5, 4).bytes();
  Aggregation ties(s);
  auto bytes = [](const std::string& k) { return std::span(reinterpret_cast<const uint8_t*>(k.data()), k.size()); };
  ties.merge(bytes(key), words({1}));
  ties.merge(bytes(one), words({1}));
  const std::vector<const AggEntry*> order = sort_by_value(ties);
  REQUIRE(order.size() == 2);
  CHECK(order[0]->key == one);
}

// The keys of rows with equal values, in print order.
std::vector<std::string> tie_order(const AggregationSpec& s, const std::vector<std::string>& keys,
                                   const SortOptions& options) {
  Aggregation agg(s);
  for (const std::string& key : keys)
    agg.merge(std::span(reinterpret_cast<const uint8_t*>(key.data()), key.size()), words({1}));
  const Aggregation* one[] = {&agg};
  std::vector<std::string> order;
  for (const JoinedRow& row : joined_rows(one, options)) order.push_back(row.key);
  return order;
}

TEST_CASE("rows with equal values print by key: integers by value at their size, strings byte by byte") {
  const AggregationSpec s = spec("count", {KeyComponent::integer(8, true), KeyComponent::string(8)});
  auto key = [](int64_t n, const char* text) { return KeyBuilder().integer(n).string(text, 8).bytes(); };
  // 256 after 1 (its low byte is smaller); -1 is the largest unsigned value; "b" after "ab".
  const std::vector<std::string> keys{key(-1, "a"), key(256, "a"), key(1, "b"), key(1, "ab")};
  CHECK(tie_order(s, keys, {}) == std::vector<std::string>{key(1, "ab"), key(1, "b"), key(256, "a"), key(-1, "a")});
  SortOptions by_second;
  by_second.key_position = 1;  // aggsortkeypos=1: the string first, then the integer
  CHECK(tie_order(s, keys, by_second) ==
        std::vector<std::string>{key(256, "a"), key(-1, "a"), key(1, "ab"), key(1, "b")});
  SortOptions reversed;
  reversed.reverse = true;
  CHECK(tie_order(s, keys, reversed) == std::vector<std::string>{key(-1, "a"), key(256, "a"), key(1, "b"), key(1, "ab")});
}

TEST_CASE("merge combines the per-CPU values and accumulates into the entry") {
  Aggregation count(spec("count"));
  count.merge(no_key(), words({3, 4}));
  REQUIRE(count.entries().size() == 1);
  CHECK(count.entries()[0].value == std::vector<int64_t>{7});
  count.merge(no_key(), words({1}));
  CHECK(count.entries()[0].value == std::vector<int64_t>{8});

  Aggregation avg(spec("avg"));
  avg.merge(no_key(), words({10, 2, -4, 1}));
  CHECK(avg.entries()[0].value == std::vector<int64_t>{6, 3});
}

TEST_CASE("min and max use only the CPUs that saw a value") {
  Aggregation min(spec("min"));
  min.merge(no_key(), words({5, 1, 0, 0, 2, 1}));
  CHECK(min.entries()[0].value == std::vector<int64_t>{2, 1});
  Aggregation max(spec("max"));
  max.merge(no_key(), words({-5, 1, 0, 0, -9, 1}));
  CHECK(max.entries()[0].value == std::vector<int64_t>{-5, 1});
  Aggregation unseen(spec("max"));
  unseen.merge(no_key(), words({0, 0}));
  CHECK(unseen.entries()[0].value == std::vector<int64_t>{0, 0});
}

TEST_CASE("stddev sums its squares in 128 bits") {
  Aggregation sd(spec("stddev"));
  sd.merge(no_key(), words({1, 0, -1, 0, 1, 0, 1, 0}));  // lo words 0xffff...ff and 1 carry into hi
  CHECK(sd.entries()[0].value == std::vector<int64_t>{2, 0, 0, 1});
  // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, mean of squares 29, stddev 2.
  CHECK(printed("stddev", {8, 40, 232, 0}, 1) == 2);
  // 0 and 2^32: sum of squares 2^64, mean 2^31, stddev 2^31.
  CHECK(printed("stddev", {2, int64_t(1) << 32, 0, 1}, 1) == 2147483648LL);
  CHECK(printed("stddev", {0, 0, 0, 0}, 1) == 0);
}

TEST_CASE("avg truncates toward zero and applies the normalization first") {
  CHECK(printed("avg", {-7, 2}, 1) == -3);
  CHECK(printed("avg", {100, 3}, 10) == 3);
  CHECK(printed("avg", {5, 0}, 1) == 0);
  CHECK(printed("sum", {-3000}, 1000) == -3);
}

TEST_CASE("entries are found by their packed key") {
  Aggregation a(spec("sum", {KeyComponent::string(8), KeyComponent::integer(4, true)}));
  const KeyBuilder k1 = KeyBuilder().string("ab", 8).integer(3);
  const KeyBuilder k2 = KeyBuilder().string("ab", 8).integer(4);
  a.merge(k1.span(), words({5}));
  a.merge(k2.span(), words({6}));
  a.merge(k1.span(), words({1}));
  REQUIRE(a.entries().size() == 2);
  REQUIRE(a.find(k1.bytes()) != nullptr);
  CHECK(a.find(k1.bytes())->value == std::vector<int64_t>{6});
  CHECK(key_string(a.spec(), k1.bytes(), 0) == "ab");
  CHECK(key_integer(a.spec(), k2.bytes(), 1) == 4);
}

TEST_CASE("integer keys read back with their D size and sign") {
  const AggregationSpec s = spec("count", {KeyComponent::integer(2, true), KeyComponent::integer(2, false),
                                                  KeyComponent::integer(1, false), KeyComponent::integer(8, false)});
  const std::string k = KeyBuilder().integer(-1).integer(-1).integer(-1).integer(-1).bytes();
  CHECK(key_integer(s, k, 0) == -1);
  CHECK(key_integer(s, k, 1) == 65535);
  CHECK(key_integer(s, k, 2) == 255);
  CHECK(key_integer(s, k, 3) == -1);
}

TEST_CASE("bad sizes are refused") {
  Aggregation a(spec("avg", {KeyComponent::integer(4, true)}));
  const KeyBuilder k = KeyBuilder().integer(1);
  CHECK_THROWS_AS(a.merge(no_key(), words({1, 1})), std::invalid_argument);
  CHECK_THROWS_AS(a.merge(k.span(), words({1, 1, 1})), std::invalid_argument);
  CHECK_THROWS_AS(a.merge(k.span(), {}), std::invalid_argument);
  CHECK_THROWS_AS(a.normalize(0), std::invalid_argument);
}

TEST_CASE("trunc keeps the largest (or smallest) entries and reports the removed keys") {
  Aggregation a(spec("count", {KeyComponent::integer(4, true)}));
  for (int64_t key : {1, 2, 3, 4}) a.merge(KeyBuilder().integer(key).span(), words({key * 10}));
  Aggregation b = a, c = a;
  std::vector<std::string> removed = a.trunc(2);
  CHECK(removed.size() == 2);
  REQUIRE(a.entries().size() == 2);
  CHECK(a.find(KeyBuilder().integer(4).bytes()) != nullptr);
  CHECK(a.find(KeyBuilder().integer(3).bytes()) != nullptr);
  CHECK(a.find(KeyBuilder().integer(1).bytes()) == nullptr);

  b.trunc(-1);
  REQUIRE(b.entries().size() == 1);
  CHECK(b.entries()[0].value == std::vector<int64_t>{10});

  CHECK(c.trunc(0).size() == 4);
  CHECK(c.entries().empty());
  CHECK(c.trunc(5).empty());
}

TEST_CASE("clear zeroes the values and keeps the keys; normalize is a print-time divisor") {
  Aggregation a(spec("quantize", {KeyComponent::integer(4, true)}));
  std::vector<uint64_t> v(127, 0);
  v[dsched::test::bucket(a.spec(), 5)] = 3;
  a.merge(KeyBuilder().integer(1).span(), v);
  a.clear();
  REQUIRE(a.entries().size() == 1);
  CHECK(a.entries()[0].value == std::vector<int64_t>(127, 0));
  a.normalize(10);
  CHECK(a.normal() == 10);
  a.denormalize();
  CHECK(a.normal() == 1);
}
