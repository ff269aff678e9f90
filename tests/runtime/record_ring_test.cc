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

}  // namespace

TEST_CASE("a ring keeps each CPU's newest records that fit, oldest first") {
  RecordRing ring(96);  // three records
  for (char name : std::string("abcde")) ring.keep(0, record(name));
  ring.keep(1, record('x'));
  ring.begin_end(1);
  CHECK(drained(ring) == "cdex");
  CHECK(drained(ring).empty());
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
  RecordRing ring(1024);
  ring.begin(1);
  ring.keep(1, record('B'));
  ring.begin_done();
  ring.keep(0, record('a'));
  ring.keep(1, record('b'));
  ring.keep(2, record('c'));
  ring.begin_end(0);
  ring.keep(0, record('E'));
  CHECK(drained(ring) == "Bbc" "aE");
}

TEST_CASE("when one CPU ran both BEGIN and END, its BEGIN records print first and the rest last") {
  RecordRing ring(1024);
  ring.begin(0);
  ring.keep(0, record('B'));
  ring.begin_done();
  ring.keep(0, record('a'));
  ring.keep(1, record('b'));
  ring.begin_end(0);
  ring.keep(0, record('E'));
  CHECK(drained(ring) == "B" "b" "aE");
}

TEST_CASE("BEGIN records a ring overwrote no longer print first") {
  RecordRing ring(64);
  ring.begin(0);
  ring.keep(0, record('B'));
  ring.begin_done();
  ring.keep(0, record('a'));
  ring.keep(0, record('c'));
  ring.keep(1, record('b'));
  ring.begin_end(0);
  CHECK(drained(ring) == "b" "ac");
}
