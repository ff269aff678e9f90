#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "runtime/record_ring.h"

using dsched::RecordRing;

namespace {

// A record of 24 bytes (32 in the buffer) whose first byte names it.
std::string record(char name) { return std::string(1, name) + std::string(23, '.'); }

std::string drained(RecordRing& ring) {
  std::string names;
  ring.drain([&](std::string_view r) { names += r[0]; });
  return names;
}

// Keeps records given as "CPU name" pairs ("0a 1b") in BEGIN, while tracing and in END, and drains
// them. BEGIN and END run on the CPU of their first pair.
std::string run(uint64_t bytes, std::string_view begin, std::string_view tracing, std::string_view end) {
  RecordRing ring(bytes);
  auto keep = [&](std::string_view pairs) {
    for (size_t i = 0; i + 1 < pairs.size(); i += 3) ring.keep(uint32_t(pairs[i] - '0'), record(pairs[i + 1]));
  };
  ring.begin(uint32_t(begin[0] - '0'));
  keep(begin);
  ring.begin_done();
  keep(tracing);
  ring.begin_end(uint32_t(end[0] - '0'));
  keep(end);
  return drained(ring);
}

}  // namespace

TEST_CASE("a ring keeps each CPU's newest records that fit, oldest first") {
  RecordRing ring(96);  // three records
  for (char name : std::string("abcde")) ring.keep(0, record(name));
  ring.keep(1, record('x'));
  ring.begin_end(1);
  CHECK(drained(ring) == "cdex");
  CHECK(drained(ring).empty());
}

TEST_CASE("records that wrap around the end of a CPU's buffer come back whole") {
  RecordRing ring(100);  // three records of 32 bytes, the fourth one's length and bytes wrap
  std::vector<std::string> kept;
  for (int i = 0; i < 20; ++i) ring.keep(0, std::string(size_t(17 + i % 5), char('a' + i)));
  ring.drain([&](std::string_view r) { kept.emplace_back(r); });
  CHECK(kept == std::vector<std::string>{std::string(19, 'r'), std::string(20, 's'), std::string(21, 't')});
}

TEST_CASE("a record larger than the buffer is a drop and drops nothing") {
  RecordRing ring(64);
  ring.keep(0, record('a'));
  ring.keep(0, std::string(60, 'b'));
  ring.keep(1, std::string(60, 'b'));
  ring.keep(1, std::string(60, 'b'));
  CHECK(ring.take_drops() == std::map<uint32_t, uint64_t>{{0, 1}, {1, 2}});
  CHECK(ring.take_drops().empty());
  CHECK(drained(ring) == "a");
}

TEST_CASE("BEGIN's CPU prints first and END's CPU last, as DTrace's consumer reads them") {
  CHECK(run(1024, "1B", "0a 1b 2c", "0E") == "Bbc" "aE");
}

TEST_CASE("when one CPU ran both BEGIN and END, its BEGIN records print first and the rest last") {
  CHECK(run(1024, "0B", "0a 1b", "0E") == "B" "b" "aE");
}

TEST_CASE("BEGIN records a ring overwrote no longer print first") {
  CHECK(run(64, "0B", "0a 0c 1b", "0") == "b" "ac");
}
