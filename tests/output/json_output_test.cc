#include <doctest/doctest.h>

#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

#include "aggregation_support.h"
#include "output/json_output.h"
#include "output/text_output.h"

using namespace dsched::abi;
using dsched::output::JsonOutput;
using dsched::output::TextOutput;
using json = nlohmann::json;

namespace {

// Runs `events` against an output writing to memory; returns what it wrote to (data, messages).
template <typename Out, typename Events>
std::pair<std::string, std::string> capture(const Options& options, Events events) {
  char* data = nullptr;
  char* messages = nullptr;
  size_t data_size = 0, messages_size = 0;
  FILE* out = open_memstream(&data, &data_size);
  FILE* err = open_memstream(&messages, &messages_size);
  {
    Out output(out, "memory", err, options);
    events(output);
    output.flush();
  }
  std::fclose(out);
  std::fclose(err);
  std::pair<std::string, std::string> result{std::string(data, data_size), std::string(messages, messages_size)};
  std::free(data);
  std::free(messages);
  return result;
}

std::vector<json> lines(const std::string& text) {
  std::vector<json> objects;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) objects.push_back(json::parse(line));
  return objects;
}

Aggregation counts() {
  Aggregation a(dsched::test::spec_of("count", {}, {KeyComponent::string(16), KeyComponent::integer(4, true)}, 1));
  a.merge(KeyBuilder().string("ksoftirqd/0", 16).integer(-3).span(), std::vector<uint64_t>{4, 3});
  a.merge(KeyBuilder().string("sshd", 16).integer(12).span(), std::vector<uint64_t>{1, 0});
  return a;
}

Aggregation histogram() {
  Aggregation q(dsched::test::spec_of("quantize", {}, {}, 2));
  std::vector<uint64_t> words(127, 0);
  words[dsched::test::bucket(q.spec(), 1000)] = 5;
  words[dsched::test::bucket(q.spec(), 3)] = 2;
  q.merge(KeyBuilder().span(), words);
  return q;
}

}  // namespace

TEST_CASE("end of run: each aggregation one line, holding what the text output prints") {
  Options options;
  Aggregation a = counts(), q = histogram();
  const Aggregation* all[] = {&a, &q};
  auto [text, text_messages] = capture<TextOutput>(options, [&](auto& o) { o.end_of_run(all); });
  auto [data, messages] = capture<JsonOutput>(options, [&](auto& o) { o.end_of_run(all); });
  std::vector<json> objects = lines(data);
  REQUIRE(objects.size() == 2);

  CHECK(objects[0]["aggregation-name"] == "a1");
  const json& rows = objects[0]["aggregation-data"];
  REQUIRE(rows.size() == 2);
  // The text output's order (by value): sshd's 1, then ksoftirqd's 7.
  CHECK(rows[0] == json::parse(R"({"keys": ["sshd", 12], "count": 1})"));
  CHECK(rows[1] == json::parse(R"({"keys": ["ksoftirqd/0", -3], "count": 7})"));
  for (const json& row : rows) {
    std::string line_start = "  " + row["keys"][0].get<std::string>();
    REQUIRE(text.find(line_start) != std::string::npos);
    std::string line = text.substr(text.find(line_start), text.find('\n', text.find(line_start)) - text.find(line_start));
    CHECK(line.find(" " + std::to_string(row["keys"][1].get<int>()) + " ") != std::string::npos);
    CHECK(line.ends_with(" " + std::to_string(row["count"].get<int>())));
  }

  CHECK(objects[1]["aggregation-name"] == "a2");
  const json& buckets = objects[1]["aggregation-data"][0]["buckets"];
  CHECK(objects[1]["aggregation-data"][0]["keys"].empty());
  // Every row the text prints ("value |@@@ count") is a bucket with that value and count.
  std::istringstream in(text.substr(text.find("Distribution")));
  std::string line;
  std::getline(in, line);
  size_t matched = 0;
  while (std::getline(in, line) && line.find('|') != std::string::npos) {
    long long value = std::stoll(line.substr(0, line.find('|')));
    long long count = std::stoll(line.substr(line.find_last_of("@ ", line.find_last_not_of(' ')) + 1));
    REQUIRE(matched < buckets.size());
    CHECK(buckets[matched]["value"] == value);
    CHECK(buckets[matched]["count"] == count);
    ++matched;
  }
  CHECK(matched == buckets.size());
  CHECK(matched >= 3);
}

TEST_CASE("a firing: probe fields, trace values, printf message then its arguments") {
  Options options;
  auto format = dsched::printf_spec::parse_format("%s ran %d\n");
  REQUIRE(format.ok());
  Value args[] = {Value::string("sshd"), Value::integer(42, 4)};
  auto [data, messages] = capture<JsonOutput>(options, [&](auto& o) {
    o.begin_firing({1, 29, "sched", "vmlinux", "", "on-cpu"});
    o.trace(Value::integer(-5, 4));
    o.printf(format.format, args);
    o.end_firing();
  });
  std::vector<json> objects = lines(data);
  REQUIRE(objects.size() == 1);
  const json& f = objects[0];
  CHECK(f["cpu"] == 1);
  CHECK(f["id"] == 29);
  CHECK(f["provider"] == "sched");
  CHECK(f["module"] == "vmlinux");
  CHECK(f["name"] == "on-cpu");
  CHECK(f["timestamp"].is_number_integer());
  CHECK(f["output"] == json::parse(R"([{"value": -5}, {"message": "sshd ran 42\n"}, {"value": "sshd"},
                                       {"value": 42}])"));
  CHECK(messages.empty());
}

TEST_CASE("drops, faults and messages go to the error stream as objects") {
  Options options;
  auto [data, messages] = capture<JsonOutput>(options, [&](auto& o) {
    o.drops(DropKind::DynamicVariable, 3, std::nullopt);
    o.fault({2, 29, "sched:vmlinux::on-cpu", "invalid address (0x10)", 1, 7});
    o.error("write error on standard output");
    o.matched("BEGIN", false, 1);
  });
  CHECK(data.empty());
  std::vector<json> objects = lines(messages);
  REQUIRE(objects.size() == 4);
  CHECK(objects[0]["name"] == "DROP");
  CHECK(objects[0]["module"] == "INTERNAL");
  CHECK(objects[0]["count"] == 3);
  CHECK(objects[0]["kind"] == "dynamic-variable");
  CHECK(objects[0]["cpu"] == -1);
  CHECK(objects[0]["msg"] == "dsched: 3 dynamic variable drops");
  CHECK(objects[1]["name"] == "ERROR");
  CHECK(objects[1]["fault"] == "invalid address (0x10)");
  CHECK(objects[1]["enabled-probe-id"] == 2);
  CHECK(objects[2] == json::parse(R"({"error": "write error on standard output"})"));
  CHECK(objects[3] == json::parse(R"({"matched": 1, "description": "BEGIN"})"));
}

TEST_CASE("strings that are not UTF-8 still make valid JSON") {
  Options options;
  auto [data, messages] = capture<JsonOutput>(options, [&](auto& o) {
    o.begin_firing({0, 1, "dtrace", "", "", "BEGIN"});
    o.trace(Value::string("bad\xff"));
    o.end_firing();
  });
  CHECK(lines(data)[0]["output"][0]["value"] == "bad\xEF\xBF\xBD");
}

TEST_CASE("aggpercpu: each entry holds each CPU's value under per-cpu") {
  Options options;
  Aggregation c(dsched::test::spec_of("count", {}, {KeyComponent::string(8)}, 0));
  c.keep_per_cpu();
  c.merge(KeyBuilder().string("a", 8).span(), std::vector<uint64_t>{3, 4});
  const Aggregation* all[] = {&c};
  auto [data, messages] = capture<JsonOutput>(options, [&](auto& o) { o.end_of_run(all); });
  std::vector<json> objects = lines(data);
  REQUIRE(objects.size() == 1);
  CHECK(objects[0]["aggregation-data"][0] ==
        json::parse(R"({"keys": ["a"], "count": 7, "per-cpu": [{"cpu": 0, "count": 3}, {"cpu": 1, "count": 4}]})"));
}
