// Every example script compiles unchanged, into the program its text describes.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "lang/builtins/builtin.h"
#include "test_support.h"

using namespace dsched::lang;
using dsched::lang::test::read_file;

namespace {

std::unique_ptr<Program> compile_example(const std::string& name) {
  std::filesystem::path path = std::filesystem::path(DSCHED_SOURCE_DIR) / "examples" / name;
  FrontendOptions options;
  // whererun.d takes the process name as $$1; an argument the others do not read is an error.
  options.macro_args = {name};
  if (name == "whererun.d") options.macro_args.push_back("imapd");
  CheckResult r = test::check_sources({{name, read_file(path), false}}, options);
  INFO(r.error);
  REQUIRE(r.program);
  return std::move(r.program);
}

}  // namespace

TEST_SUITE("examples") {

TEST_CASE("every example compiles") {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(DSCHED_SOURCE_DIR) / "examples")) {
    if (entry.path().extension() != ".d") continue;
    CAPTURE(entry.path().filename().string());
    auto program = compile_example(entry.path().filename().string());
    CHECK(!program->clauses.empty());
    ++count;
  }
  CHECK(count >= 8);
}

TEST_CASE("qtime.d: a three-key array and one quantize per CPU") {
  auto p = compile_example("qtime.d");
  REQUIRE(p->globals.size() == 1);
  CHECK(p->globals[0].name == "a");
  CHECK(p->globals[0].key_types.size() == 3);
  REQUIRE(p->aggregations.size() == 1);
  CHECK(p->aggregations[0].function->name() == "quantize");
  REQUIRE(p->aggregations[0].key_types.size() == 1);
  CHECK(p->aggregations[0].key_types[0]->size == 4);  // printed as a 4-byte key
  CHECK(p->clauses[0].probes[0]->name == "enqueue");
  CHECK(p->clauses[1].probes[0]->name == "dequeue");
  CHECK(p->clauses[0].probes[0]->provider == "sched");
}

TEST_CASE("whoqueue.d: pragmas, declarations, speculations and clause-locals") {
  auto p = compile_example("whoqueue.d");
  CHECK(p->options.quiet());
  CHECK(p->options.nspec() == 4);
  CHECK(p->options.number("specsize") == 100 * 1024);
  CHECK(p->uses_speculation);
  REQUIRE(p->globals.size() >= 2);
  CHECK(p->globals[0].name == "maxlen");
  CHECK(p->globals[0].declared);
  CHECK(p->globals[1].name == "spec");
  CHECK(p->globals[1].key_types.size() == 1);
  std::vector<std::string> locals;
  for (const Variable& v : p->clause_locals) locals.push_back(v.name);
  CHECK(locals == std::vector<std::string>{"cpu", "len", "spec", "in"});
  CHECK(p->clauses.size() == 6);
}

TEST_CASE("howlong.d: lquantize parameters and a string key from ?:") {
  auto p = compile_example("howlong.d");
  REQUIRE(p->aggregations.size() == 1);
  CHECK(p->aggregations[0].params == std::vector<int64_t>{0, 500, 25});
  CHECK(p->aggregations[0].key_types[0]->is_string());
  CHECK(dump(*p).find("curthread") != std::string::npos);  // curlwpsinfo reads through curthread
  CHECK(p->thread_locals.size() == 2);
}

TEST_CASE("whererun.d: $$1 becomes the script argument") {
  auto p = compile_example("whererun.d");
  std::string d = dump(*p);
  CHECK(d.find("(== execname:string \"imapd\":string):int") != std::string::npos);
  CHECK(p->aggregations[0].function->name() == "sum");
  CHECK(p->clauses.back().probes[0]->name == "END");
}

TEST_CASE("tick.d: two descriptions in one clause, whose probes' arguments differ, compile one by one") {
  auto p = compile_example("tick.d");
  REQUIRE(p->clauses.size() == 2);
  REQUIRE(p->clauses[0].probes.size() == 1);
  REQUIRE(p->clauses[1].probes.size() == 1);
  CHECK(p->clauses[0].probes[0]->name == "tick");  // in the order written
  CHECK(p->clauses[1].probes[0]->name == "enqueue");
  CHECK(p->aggregations.size() == 1);
  CHECK(p->aggregations[0].params == std::vector<int64_t>{0, 10, 1});
}

TEST_CASE("gterm.d: stringof of a translated char array compares as a string") {
  auto p = compile_example("gterm.d");
  const Expr& pred = *p->clauses[1].predicate;
  CHECK(pred.kind == ExprKind::Binary);
  CHECK(pred.operand(0)->type->is_string());
  CHECK(pred.operand(0)->operand(0)->type->is_array());
  CHECK(pred.operand(0)->operand(0)->type->count == 16);
}

TEST_CASE("tcpbytes.d and tcpstate.d: the tcp provider's translated arguments") {
  auto bytes = compile_example("tcpbytes.d");
  REQUIRE(bytes->aggregations.size() == 1);
  CHECK(bytes->aggregations[0].function->name() == "sum");
  REQUIRE(bytes->aggregations[0].key_types.size() == 3);
  CHECK(bytes->aggregations[0].key_types[0]->is_string());  // ip_daddr, ip_saddr
  CHECK(bytes->clauses[0].probes[0]->full_name() == "tcp:vmlinux::send");
  CHECK(bytes->clauses[1].probes[0]->full_name() == "tcp:vmlinux::receive");
  auto state = compile_example("tcpstate.d");
  REQUIRE(state->globals.size() == 1);
  CHECK(state->globals[0].name == "entered");
  CHECK(state->clauses[1].probes[0]->name == "state-change");
}

}  // TEST_SUITE
