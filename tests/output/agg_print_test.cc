#include <doctest/doctest.h>

#include <stdexcept>

#include <vector>

#include "aggregation_support.h"
#include "abi/symbols.h"
#include "output/agg_print.h"

using namespace dsched::abi;
using namespace dsched::output;
using dsched::printf_spec::parse_format;

namespace {

// " %16lld" of a number given as its digits.
std::string num16(const std::string& digits) { return " " + std::string(16 - digits.size(), ' ') + digits; }
// "  %-50s"
std::string str_key(const std::string& s) { return "  " + s + std::string(50 - s.size(), ' '); }
// " %8d"
std::string int_key(const std::string& digits) { return " " + std::string(8 - digits.size(), ' ') + digits; }

AggregationSpec spec(uint32_t id, const char* function, std::vector<KeyComponent> keys = {},
                     std::vector<int64_t> params = {}) {
  return dsched::test::spec_of(function, std::move(params), std::move(keys), id);
}

void add(Aggregation& a, const KeyBuilder& key, std::initializer_list<int64_t> value) {
  std::vector<uint64_t> w;
  for (int64_t v : value) w.push_back(uint64_t(v));
  a.merge(key.span(), w);
}

std::string print_one(const Aggregation& a, const SortOptions& o = {}) {
  const Aggregation* aggs[] = {&a};
  return print_entries(aggs, o);
}

}  // namespace

TEST_CASE("entries sort by value, ties by key; string keys print left-justified to 50") {
  Aggregation a(spec(1, "count", {KeyComponent::string(16)}));
  add(a, KeyBuilder().string("b", 16), {2});
  add(a, KeyBuilder().string("a", 16), {2});
  add(a, KeyBuilder().string("c", 16), {1});
  CHECK(print_one(a) == str_key("c") + num16("1") + "\n" + str_key("a") + num16("2") + "\n" + str_key("b") +
                            num16("2") + "\n");
}

// As DTrace's dt_print_datum: by size alone, 1 and 2 bytes zero-extended, 4 and 8 bytes signed.
TEST_CASE("integer keys print by D size, whatever their sign") {
  Aggregation a(spec(1, "count", {KeyComponent::integer(1, true), KeyComponent::integer(1, false),
                                         KeyComponent::integer(2, true), KeyComponent::integer(4, false),
                                         KeyComponent::integer(8, false)}));
  add(a, KeyBuilder().integer(-1).integer(255).integer(-300).integer(4000000000).integer(-1), {1});
  CHECK(print_one(a) == " 255 255 65236 -294967296               -1" + num16("1") + "\n");
}

TEST_CASE("a string key that does not read as text prints as a hex dump") {
  Aggregation a(spec(1, "count", {KeyComponent::string(24)}));
  add(a, KeyBuilder().string("", 24), {1});
  RenderContext context;
  context.string_capacity = 17;
  const Aggregation* aggs[] = {&a};
  CHECK(print_entries(aggs, {}, context) ==
        "\n             0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f  0123456789abcdef\n"
        "         0: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  ................\n"
        "        10: 00                                               .\n" +
            num16("1") + "\n");
}

TEST_CASE("a key-less aggregation prints just its value") {
  Aggregation a(spec(1, "sum"));
  add(a, KeyBuilder(), {40});
  add(a, KeyBuilder(), {2});
  CHECK(print_one(a) == std::string(15, ' ') + "42\n");
  CHECK(print_one(a) == num16("42") + "\n");
}

TEST_CASE("every scalar function prints its number") {
  Aggregation min(spec(1, "min"));
  add(min, KeyBuilder(), {-5, 1});
  CHECK(print_one(min) == num16("-5") + "\n");
  Aggregation avg(spec(1, "avg"));
  add(avg, KeyBuilder(), {10, 4});
  CHECK(print_one(avg) == num16("2") + "\n");
  Aggregation sd(spec(1, "stddev"));
  add(sd, KeyBuilder(), {8, 40, 232, 0});
  CHECK(print_one(sd) == num16("2") + "\n");
  Aggregation sum(spec(1, "sum"));
  add(sum, KeyBuilder(), {3000});
  sum.normalize(1000);
  CHECK(print_one(sum) == num16("3") + "\n");
}

TEST_CASE("integer keys compare as unsigned") {
  Aggregation a(spec(1, "count", {KeyComponent::integer(8, true)}));
  add(a, KeyBuilder().integer(-1), {1});
  add(a, KeyBuilder().integer(1), {1});
  CHECK(print_one(a) == num16("1") + num16("1") + "\n" + num16("-1") + num16("1") + "\n");
}

TEST_CASE("sort options: aggsortkey, aggsortrev, aggsortkeypos") {
  Aggregation a(spec(1, "count", {KeyComponent::integer(4, true)}));
  add(a, KeyBuilder().integer(3), {1});
  add(a, KeyBuilder().integer(1), {5});
  add(a, KeyBuilder().integer(2), {3});
  auto line = [](const char* k, const char* v) { return int_key(k) + num16(v) + "\n"; };
  CHECK(print_one(a) == line("3", "1") + line("2", "3") + line("1", "5"));
  CHECK(print_one(a, {.by_key = true}) == line("1", "5") + line("2", "3") + line("3", "1"));
  CHECK(print_one(a, {.reverse = true}) == line("1", "5") + line("2", "3") + line("3", "1"));
  CHECK(print_one(a, {.by_key = true, .reverse = true}) == line("3", "1") + line("2", "3") + line("1", "5"));

  Aggregation two(spec(2, "count", {KeyComponent::integer(4, true), KeyComponent::integer(4, true)}));
  add(two, KeyBuilder().integer(1).integer(9), {1});
  add(two, KeyBuilder().integer(2).integer(8), {1});
  add(two, KeyBuilder().integer(3).integer(7), {1});
  auto pair = [](const char* k1, const char* k2) { return int_key(k1) + int_key(k2) + num16("1") + "\n"; };
  CHECK(print_one(two) == pair("1", "9") + pair("2", "8") + pair("3", "7"));
  CHECK(print_one(two, {.by_key = true, .key_position = 1}) == pair("3", "7") + pair("2", "8") + pair("1", "9"));
  CHECK(print_one(two, {.by_key = true, .key_position = 5}) == pair("1", "9") + pair("2", "8") + pair("3", "7"));
}

TEST_CASE("avg sorts by its mean, histograms by their weighted sum") {
  Aggregation avg(spec(1, "avg", {KeyComponent::integer(4, true)}));
  add(avg, KeyBuilder().integer(1), {100, 10});  // mean 10, larger sum
  add(avg, KeyBuilder().integer(2), {60, 2});    // mean 30
  CHECK(print_one(avg) == int_key("1") + num16("10") + "\n" + int_key("2") + num16("30") + "\n");
}

TEST_CASE("histograms print under their keys with a blank line after each") {
  Aggregation q(spec(1, "quantize", {KeyComponent::integer(4, true)}));
  std::vector<uint64_t> small(127, 0), large(127, 0);
  small[dsched::test::bucket(q.spec(), 1)] = 2;
  large[dsched::test::bucket(q.spec(), 1024)] = 1;
  q.merge(KeyBuilder().integer(7).span(), large);
  q.merge(KeyBuilder().integer(0).span(), small);
  const std::string header = "\n           value  ------------- Distribution ------------- count    \n";
  const std::string empty = std::string(40, ' ');
  const std::string full = std::string(40, '@');
  const std::string expected = int_key("0") + header + "               0 |" + empty + " 0        \n" +
                               "               1 |" + full + " 2        \n" + "               2 |" + empty +
                               " 0        \n\n" + int_key("7") + header + "             512 |" + empty +
                               " 0        \n" + "            1024 |" + full + " 1        \n" +
                               "            2048 |" + empty + " 0        \n\n";
  CHECK(print_one(q) == expected);
}

TEST_CASE("printa without a format: a newline, then several aggregations side by side") {
  Aggregation a(spec(1, "count", {KeyComponent::integer(4, true)}));
  Aggregation b(spec(2, "sum", {KeyComponent::integer(4, true)}));
  add(a, KeyBuilder().integer(1), {2});
  add(a, KeyBuilder().integer(2), {1});
  add(b, KeyBuilder().integer(1), {100});
  add(b, KeyBuilder().integer(3), {50});
  Aggregation* both[] = {&a, &b};
  CHECK(printa_plain(both, {}) == "\n" + int_key("3") + num16("0") + num16("50") + "\n" + int_key("2") + num16("1") +
                                      num16("0") + "\n" + int_key("1") + num16("2") + num16("100") + "\n");
  CHECK(printa_plain(both, {.aggregation_position = 1}) ==
        "\n" + int_key("2") + num16("1") + num16("0") + "\n" + int_key("3") + num16("0") + num16("50") + "\n" +
            int_key("1") + num16("2") + num16("100") + "\n");
  CHECK(a.printed());
  CHECK(b.printed());
}

TEST_CASE("printa with a format: keys by key conversions, values by %@") {
  Aggregation a(spec(1, "count", {KeyComponent::string(16)}));
  add(a, KeyBuilder().string("x", 16), {3});
  add(a, KeyBuilder().string("yy", 16), {1});
  Aggregation* one[] = {&a};
  const auto f = parse_format("%-10s %@8d\n");
  REQUIRE(f.ok());
  CHECK(printa_formatted(f.format, one, {}) == "yy                1\nx                 3\n");
  CHECK(a.printed());
}

TEST_CASE("printa formats: several aggregations, extra %@ repeat the last, avg and normalize") {
  Aggregation a(spec(1, "avg", {KeyComponent::integer(4, true)}));
  Aggregation b(spec(2, "sum", {KeyComponent::integer(4, true)}));
  add(a, KeyBuilder().integer(5), {9, 2});
  add(b, KeyBuilder().integer(5), {-4000});
  b.normalize(1000);
  Aggregation* both[] = {&a, &b};
  const auto f = parse_format("%d: %@d %@d %@d\n");
  REQUIRE(f.ok());
  CHECK(printa_formatted(f.format, both, {}) == "5: 4 -4 -4\n");
}

TEST_CASE("printa formats print a histogram whole for %@") {
  AggregationSpec s = spec(1, "lquantize", {KeyComponent::string(8)}, {0, 2, 1});
  Aggregation lq(s);
  lq.merge(KeyBuilder().string("k", 8).span(), std::vector<uint64_t>{0, 1, 0, 0});
  Aggregation* one[] = {&lq};
  const auto f = parse_format("key %s%@d\n");
  REQUIRE(f.ok());
  const std::string expected = "key k\n           value  ------------- Distribution ------------- count    \n"
                               "             < 0 |" + std::string(40, ' ') + " 0        \n" +
                               "               0 |" + std::string(40, '@') + " 1        \n" +
                               "               1 |" + std::string(40, ' ') + " 0        \n\n";
  CHECK(printa_formatted(f.format, one, {}) == expected);
}

TEST_CASE("end of run: a newline, then the unprinted aggregations in id order") {
  Aggregation first(spec(1, "count"));
  Aggregation second(spec(2, "sum"));
  Aggregation empty(spec(0, "count"));
  Aggregation shown(spec(3, "count"));
  add(first, KeyBuilder(), {5});
  add(second, KeyBuilder(), {7});
  add(shown, KeyBuilder(), {9});
  shown.mark_printed();
  const Aggregation* all[] = {&second, &shown, &empty, &first};
  CHECK(print_end_of_run(all, {}) == "\n" + num16("5") + "\n" + num16("7") + "\n");
  CHECK(print_end_of_run(all, {.reverse = true}) == "\n" + num16("7") + "\n" + num16("5") + "\n");
  const Aggregation* none[] = {&empty};
  CHECK(print_end_of_run(none, {}) == "\n");
}

TEST_CASE("clear keeps keys printing zero; trunc drops them") {
  Aggregation a(spec(1, "count", {KeyComponent::integer(4, true)}));
  add(a, KeyBuilder().integer(1), {4});
  add(a, KeyBuilder().integer(2), {6});
  a.clear();
  CHECK(print_one(a) == int_key("1") + num16("0") + "\n" + int_key("2") + num16("0") + "\n");
  add(a, KeyBuilder().integer(2), {1});
  a.trunc(1);
  CHECK(print_one(a) == int_key("2") + num16("1") + "\n");
}

namespace {

// Kernel addresses below 0x100 are in function f<address / 16 * 16> of vmlinux; user ones in u of a.out.
class FakeSymbols : public Symbolizer {
 public:
  Symbol kernel(uint64_t pc) override {
    if (pc >= 0x100) return {};
    return {"vmlinux", "f" + std::to_string(pc / 16 * 16), pc / 16 * 16};
  }
  Symbol user(uint32_t, uint64_t pc) override { return {"a.out", "u", pc & ~uint64_t(0xf)}; }
  void remember_process(uint32_t) override {}
};

// Three kernel frames as a packed stack key component.
std::string stack_key(uint64_t a, uint64_t b, uint64_t c) {
  return KeyBuilder().integer(int64_t(a)).integer(int64_t(b)).integer(int64_t(c)).bytes();
}

}  // namespace

TEST_CASE("a stack key prints as dt_print_stack does: a newline, then a frame a line; folded root first") {
  Aggregation a(spec(0, "count", {KeyComponent::string(8), KeyComponent::address(KeyComponent::Kind::Stack, {false, 3})}));
  auto key = [](const std::string& name, uint64_t a, uint64_t b, uint64_t c) {
    KeyBuilder k;
    k.string(name, 8);
    std::string bytes = k.bytes() + stack_key(a, b, c);
    return bytes;
  };
  std::string k1 = key("sh", 0x12, 0x21, 0), k2 = key("sh", 0x12, 0x300, 0x40);
  a.merge({reinterpret_cast<const uint8_t*>(k1.data()), k1.size()}, std::vector<uint64_t>{1});
  a.merge({reinterpret_cast<const uint8_t*>(k2.data()), k2.size()}, std::vector<uint64_t>{2});
  FakeSymbols symbols;
  const Aggregation* aggs[] = {&a};
  const std::string indent(14, ' ');
  CHECK(print_entries(aggs, {}, RenderContext{&symbols}) ==
        str_key("sh") + "\n" + indent + "vmlinux`f16+0x2\n" + indent + "vmlinux`f32+0x1\n" + num16("1") + "\n" +
            str_key("sh") + "\n" + indent + "vmlinux`f16+0x2\n" + indent + "0x300\n" + indent + "vmlinux`f64\n" +
            num16("2") + "\n");
  RenderContext folded{&symbols, 14, true};
  CHECK(print_entries(aggs, {}, folded) == "sh;vmlinux`f32;vmlinux`f16 1\nsh;vmlinux`f64;0x300;vmlinux`f16 2\n");
}

TEST_CASE("symbol keys of equal values sort by address as a number, as DTrace compares them") {
  // 0x110 is below 0x30 byte by byte (little-endian 10 01 against 30 00), above it as a number.
  Aggregation a(spec(0, "count", {KeyComponent::address(KeyComponent::Kind::Symbol, {false, 1, AddressForm::Function})}));
  for (uint64_t pc : {0x110, 0x30}) a.merge(KeyBuilder().integer(int64_t(pc)).span(), std::vector<uint64_t>{5});
  FakeSymbols symbols;
  const Aggregation* aggs[] = {&a};
  std::string printed = print_entries(aggs, {}, RenderContext{&symbols});
  CHECK(printed.find("f48") < printed.find("0x110"));
}

TEST_CASE("aggpercpu: each CPU's value on its own line after the total, histograms whole") {
  Aggregation c(spec(1, "count", {KeyComponent::string(8)}));
  c.keep_per_cpu();
  c.merge(KeyBuilder().string("a", 8).span(), std::vector<uint64_t>{3, 4});
  c.merge(KeyBuilder().string("b", 8).span(), std::vector<uint64_t>{0, 1});
  CHECK(print_one(c) == str_key("b") + num16("1") + "\n    [CPU 0]" + num16("0") + "\n    [CPU 1]" + num16("1") +
                            "\n" + str_key("a") + num16("7") + "\n    [CPU 0]" + num16("3") + "\n    [CPU 1]" +
                            num16("4") + "\n");
  c.clear();
  CHECK(print_one(c).find("[CPU 1]" + num16("4")) == std::string::npos);

  Aggregation min(spec(2, "min"));
  min.keep_per_cpu();
  min.merge({}, std::vector<uint64_t>{uint64_t(-5), 1, 9, 1});
  CHECK(print_one(min) == num16("-5") + "\n    [CPU 0]" + num16("-5") + "\n    [CPU 1]" + num16("9") + "\n");

  Aggregation avg(spec(4, "avg"));  // a CPU where the key never fired averages nothing: 0
  avg.keep_per_cpu();
  avg.merge({}, std::vector<uint64_t>{10, 2, 0, 0});  // sum, count
  CHECK(print_one(avg) == num16("5") + "\n    [CPU 0]" + num16("5") + "\n    [CPU 1]" + num16("0") + "\n");

  Aggregation q(spec(3, "quantize"));
  q.keep_per_cpu();
  std::vector<uint64_t> two_cpus(2 * 127, 0);
  two_cpus[dsched::test::bucket(q.spec(), 1)] = 2;
  two_cpus[127 + dsched::test::bucket(q.spec(), 1)] = 1;
  q.merge({}, two_cpus);
  const std::string total = format_value(q.value(q.entries()[0].value));
  const std::string cpu0 = format_value(q.value(q.entries()[0].per_cpu[0]));
  const std::string cpu1 = format_value(q.value(q.entries()[0].per_cpu[1]));
  CHECK(total.find(" 3        \n") != std::string::npos);
  CHECK(cpu0.find(" 2        \n") != std::string::npos);
  CHECK(cpu1.find(" 1        \n") != std::string::npos);
  CHECK(print_one(q) == total + "\n    [CPU 0]" + cpu0 + "\n    [CPU 1]" + cpu1 + "\n");
}

TEST_CASE("without aggpercpu, nothing per CPU is kept") {
  Aggregation c(spec(1, "count"));
  c.merge({}, std::vector<uint64_t>{3, 4});
  CHECK(c.entries()[0].per_cpu.empty());
  CHECK(print_one(c) == num16("7") + "\n");
}
