// Stamped records (dsched timeline -s): with the switch, every record carries the time and the
// context thread right after its header; without it, nothing of that is emitted.
#include <doctest/doctest.h>

#include "test_support.h"

using namespace dsched;
using namespace dsched::lang;

namespace {

Compilation compiled(const std::string& text, bool stamp) {
  FrontendOptions options;
  options.macro_args = {"test.d"};
  options.stamp_records = stamp;
  Compilation result = compile({{"test.d", text, false}}, options, test::catalog(), Stage::Object, Stage::Object);
  INFO(result.error);
  REQUIRE(result.program);
  return result;
}

// The optimised IR calls BPF helper `id`.
bool calls_helper(const Compilation& c, int id) {
  return c.dump.find("inttoptr (i64 " + std::to_string(id) + " to ptr)") != std::string::npos;
}

constexpr int kGetCurrentPidTgid = 14, kKtimeGetBootNs = 125;
constexpr uint32_t kHeader = sizeof(abi::RecordHeader), kStamp = sizeof(abi::RecordStamp);

}  // namespace

TEST_SUITE("codegen") {
  TEST_CASE("a stamped record holds the boot clock and the running thread after its header") {
    const char* script = "tick-1s { printf(\"%d\\n\", cpu); }";
    Compilation plain = compiled(script, false), stamped = compiled(script, true);
    CHECK_FALSE(plain.program->stamped_records);
    CHECK(stamped.program->stamped_records);
    REQUIRE(plain.program->records.size() == 1);
    CHECK(plain.program->records[0].size == kHeader + 8);
    CHECK(stamped.program->records[0].size == kHeader + kStamp + 8);
    // The printed value moves past the stamp.
    CHECK(plain.program->records[0].actions[0].fields[0].offset == kHeader);
    CHECK(stamped.program->records[0].actions[0].fields[0].offset == kHeader + kStamp);
    CHECK_FALSE(calls_helper(plain, kKtimeGetBootNs));
    CHECK_FALSE(calls_helper(plain, kGetCurrentPidTgid));
    CHECK(calls_helper(stamped, kKtimeGetBootNs));
    CHECK(calls_helper(stamped, kGetCurrentPidTgid));
  }

  TEST_CASE("on-cpu stamps the incoming thread, read from its task, not the running one") {
    Compilation stamped = compiled("sched:::on-cpu { printf(\"%d\\n\", cpu); }", true);
    CHECK(calls_helper(stamped, kKtimeGetBootNs));
    CHECK_FALSE(calls_helper(stamped, kGetCurrentPidTgid));
  }

  TEST_CASE("clauses that record nothing are the same with the switch") {
    const char* script = "sched:::on-cpu { @[cpu] = count(); }";
    CHECK(compiled(script, true).dump == compiled(script, false).dump);
  }
}
