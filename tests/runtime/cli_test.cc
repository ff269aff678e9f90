#include <doctest/doctest.h>

#include "runtime/cli.h"

using dsched::Invocation;
using dsched::parse_command_line;
using dsched::ProgramPiece;

namespace {

Invocation parse_ok(const std::vector<std::string>& args) {
  auto [inv, err] = parse_command_line(args);
  REQUIRE_MESSAGE(inv.has_value(), (err ? err->message : ""));
  return *inv;
}

std::string parse_error(const std::vector<std::string>& args) {
  auto [inv, err] = parse_command_line(args);
  REQUIRE(err.has_value());
  CHECK_FALSE(inv.has_value());
  return err->message;
}

}  // namespace

TEST_CASE("clustered flags take the script and leave its arguments") {
  Invocation inv = parse_ok({"-qs", "whererun.d", "imapd"});
  REQUIRE(inv.pieces.size() == 1);
  CHECK(inv.pieces[0].kind == ProgramPiece::Kind::ScriptFile);
  CHECK(inv.pieces[0].text == "whererun.d");
  CHECK(inv.script_args == std::vector<std::string>{"imapd"});
  CHECK(inv.options.values().size() == 1);
  CHECK(inv.options.quiet());
}

TEST_CASE("descriptions, options and preprocessor flags keep their order") {
  Invocation inv = parse_ok({"-n", "BEGIN", "-xbufsize=4m", "-x", "quiet", "-C", "-DX=1", "-I", "inc",
                             "-n", "END { exit(0); }"});
  REQUIRE(inv.pieces.size() == 2);
  CHECK(inv.pieces[1].text == "END { exit(0); }");
  CHECK(inv.options.values().size() == 2);
  CHECK(inv.options.number("bufsize") == 4 << 20);
  CHECK(inv.options.quiet());
  CHECK(inv.preprocess);
  CHECK(inv.cpp_args == std::vector<std::string>{"-DX=1", "-Iinc"});
}

TEST_CASE("modes") {
  CHECK(parse_ok({"-e", "-s", "x.d"}).mode == Invocation::Mode::CompileOnly);
  CHECK(parse_ok({"-l"}).mode == Invocation::Mode::List);
  CHECK(parse_ok({"-l", "-P", "sched"}).pieces[0].kind == ProgramPiece::Kind::Provider);
  CHECK(parse_ok({"--version"}).mode == Invocation::Mode::Version);
  CHECK(parse_ok({"-h"}).mode == Invocation::Mode::Help);
  Invocation ctprof = parse_ok({"ctprof", "compare", "a", "-q"});
  CHECK(ctprof.mode == Invocation::Mode::Ctprof);
  CHECK(ctprof.ctprof_args == std::vector<std::string>{"compare", "a", "-q"});
}

TEST_CASE("-c and -p") {
  CHECK(parse_ok({"-n", "BEGIN", "-c", "sleep 1"}).command == "sleep 1");
  CHECK(parse_ok({"-n", "BEGIN", "-p", "42"}).pid == 42);
  CHECK(parse_error({"-n", "BEGIN", "-p", "4x2"}) == "invalid process ID: 4x2");
  CHECK(parse_error({"-n", "BEGIN", "-p", "1", "-c", "true"}) == "only one of -c and -p may be given");
  // A second command or process is refused, not dropped.
  CHECK(parse_error({"-n", "BEGIN", "-c", "true", "-c", "false"}) == "-c may be given once: dsched follows one process");
  CHECK(parse_error({"-n", "BEGIN", "-p", "1", "-p", "2"}) == "-p may be given once: dsched follows one process");
}

TEST_CASE("usage errors") {
  CHECK(parse_error({"-s"}) == "option requires an argument -- 's'");
  CHECK(parse_error({"-k", "-n", "BEGIN"}) == "invalid option -- 'k'");
  CHECK(parse_error({"--frobnicate"}) == "invalid option '--frobnicate'");
  CHECK(parse_error({"-q"}) == "no probes specified: use -s script, -n description or -P provider");
  CHECK(parse_error({"-x", "=1", "-n", "BEGIN"}) == "invalid option -x =1");
}

TEST_CASE("-- ends the options") {
  Invocation inv = parse_ok({"-s", "x.d", "--", "-q"});
  CHECK(inv.script_args == std::vector<std::string>{"-q"});
  CHECK(inv.options.values().empty());
}

namespace {

std::string clause_of(ProgramPiece::Kind kind, const std::string& text) {
  std::string out, error;
  REQUIRE_MESSAGE(dsched::description_clause({kind, text}, &out, &error), error);
  return out;
}

}  // namespace

TEST_CASE("-P/-m/-f place their field in a full description and keep the clause") {
  using K = ProgramPiece::Kind;
  CHECK(clause_of(K::Provider, "sched") == "sched:::");
  CHECK(clause_of(K::Provider, "profile{ @ = count(); }") == "profile::: { @ = count(); }");
  CHECK(clause_of(K::Module, "vmlinux") == ":vmlinux::");
  CHECK(clause_of(K::Module, "sched:vmlinux /pid == 1/ {}") == "sched:vmlinux:: /pid == 1/ {}");
  CHECK(clause_of(K::Function, "f") == "::f:");
  CHECK(clause_of(K::Function, "m:f") == ":m:f:");
  CHECK(clause_of(K::Function, "p:m:f") == "p:m:f:");
  CHECK(clause_of(K::Description, "BEGIN { x = a ? b : c; }") == "BEGIN { x = a ? b : c; }");
  std::string out, error;
  CHECK_FALSE(dsched::description_clause({K::Module, "a:b:c"}, &out, &error));
  CHECK(error == "invalid probe description \"a:b:c\": [provider:]module expected");
}

TEST_CASE("new dtrace(1) flags") {
  Invocation inv = parse_ok({"-b", "8m", "-F", "-H", "-X", "s", "-L", "lib", "-V", "-i", "12 { exit(0); }"});
  CHECK(inv.options.number("bufsize") == 8 << 20);
  CHECK(inv.options.flag("flowindent"));
  CHECK(inv.options.text("stdc") == "s");
  CHECK(inv.cpp_args == std::vector<std::string>{"-H"});
  CHECK(inv.library_dirs == std::vector<std::string>{"lib"});
  CHECK(inv.mode == Invocation::Mode::ApiVersion);
  REQUIRE(inv.pieces.size() == 1);
  CHECK(inv.pieces[0].kind == ProgramPiece::Kind::ProbeId);
  CHECK(dsched::split_clause(inv.pieces[0].text).first == "12");
  for (const char* flag : {"-a", "-A", "-G", "-32", "-64"}) {
    auto [parsed, err] = parse_command_line({flag, "-n", "BEGIN"});
    REQUIRE(err.has_value());
    CHECK_FALSE(err->show_usage);
    CHECK(err->message.starts_with(std::string(flag) + " is not "));
  }
}
