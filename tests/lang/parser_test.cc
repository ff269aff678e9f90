// The grammar: precedence and associativity (as typed dumps), literals, probe descriptions,
// declarations and the lexical corners of D.
#include <doctest/doctest.h>

#include <cstdlib>

#include "test_support.h"

using namespace dsched::lang;
using namespace dsched::lang::test;

namespace {
// Variables a, b, c are ints 1, 2, 3 (non-constant, so nothing folds).
const std::string A = "(global a#0):int", B = "(global b#1):int", C = "(global c#2):int";
}  // namespace

TEST_SUITE("parser") {

TEST_CASE("binary operators follow C precedence") {
  CHECK(expr_dump("a + b * c") == "(+ " + A + " (* " + B + " " + C + "):int):int");
  CHECK(expr_dump("a * b + c") == "(+ (* " + A + " " + B + "):int " + C + "):int");
  CHECK(expr_dump("a << b + c") == "(<< " + A + " (+ " + B + " " + C + "):int):int");
  CHECK(expr_dump("a < b == c") == "(== (< " + A + " " + B + "):int " + C + "):int");
  CHECK(expr_dump("a & b | c ^ a") == "(| (& " + A + " " + B + "):int (^ " + C + " " + A + "):int):int");
  CHECK(expr_dump("a && b || c") == "(|| (&& " + A + " " + B + "):int " + C + "):int");
  CHECK(expr_dump("a || b ^^ c && a") == "(|| " + A + " (^^ " + B + " (&& " + C + " " + A + "):int):int):int");
  CHECK(expr_dump("a | b && c") == "(&& (| " + A + " " + B + "):int " + C + "):int");
  CHECK(expr_dump("(a + b) * c") == "(* (+ " + A + " " + B + "):int " + C + "):int");
}

TEST_CASE("associativity") {
  CHECK(expr_dump("a - b - c") == "(- (- " + A + " " + B + "):int " + C + "):int");
  CHECK(expr_dump("a / b % c") == "(% (/ " + A + " " + B + "):int " + C + "):int");
  CHECK(expr_dump("a = b = c") == "(= " + A + " (= " + B + " " + C + "):int):int");
  CHECK(expr_dump("a ? b : c ? a : b") ==
        "(?: " + A + " " + B + " (?: " + C + " " + A + " " + B + "):int):int");
}

TEST_CASE("unary, postfix, compound assignment and comma") {
  CHECK(expr_dump("-a * b") == "(* (- " + A + "):int " + B + "):int");
  CHECK(expr_dump("!a + ~b") == "(+ (! " + A + "):int (~ " + B + "):int):int");
  CHECK(expr_dump("a++ + ++b") == "(+ (post++ " + A + "):int (pre++ " + B + "):int):int");
  CHECK(expr_dump("a-- - --b") == "(- (post-- " + A + "):int (pre-- " + B + "):int):int");
  CHECK(expr_dump("a += b * c") == "(+= " + A + " (* " + B + " " + C + "):int):int");
  CHECK(expr_dump("a <<= 2") == "(<<= " + A + " 2:int):int");
  CHECK(expr_dump("(a = 5, b)") == "(, (= " + A + " 5:int):int " + B + "):int");
  CHECK(expr_dump("(long long)a + b") == "(+ (cast long long " + A + "):long long " + B + "):long long");
}

TEST_CASE("postfix binds tighter than prefix, prefix and casts tighter than binary operators") {
  const std::string with_array = "a = 1; b = 2; c = 3; m[1] = 5;";
  const std::string M = "(global m#3 1:int):int";
  CHECK(expr_dump("-m[1]", with_array) == "(- " + M + "):int");
  CHECK(expr_dump("++m[1]", with_array) == "(pre++ " + M + "):int");
  CHECK(expr_dump("(long)m[1] * 2", with_array) == "(* (cast long " + M + "):long long 2:int):long long");
  CHECK(expr_dump("-(long)a") == "(- (cast long " + A + "):long long):long long");
  CHECK(expr_dump("!a || b ? c : a") == "(?: (|| (! " + A + "):int " + B + "):int " + C + " " + A + "):int");
  CHECK(expr_dump("sizeof(int) - 1") == "3:size_t");  // not sizeof((int)-1)
  CHECK(expr_dump("sizeof m[1] + 1", with_array) == "5:size_t");
  CHECK(error_of("BEGIN { x = sizeof (int) a; }").find("syntax error near \"a\"") != std::string::npos);
  CHECK(error_of("BEGIN { x = ++a++; }").find("cannot assign here") != std::string::npos);  // ++(a++)
  CHECK(error_of("BEGIN { a + b = c; }").find("syntax error near \"=\"") != std::string::npos);
}

TEST_CASE("assignments and ++ inside expressions (whoqueue.d's form)") {
  std::string d = dump_of(
      "sched:::enqueue { this->len = ++qlen[this->cpu = args[2]->cpu_id]; }");
  CHECK(d.find("(= (this len#1):long long (pre++ (global qlen#0 (= (this cpu#0):processorid_t "
               "(probe-arg 2):processorid_t):processorid_t):long long):long long):long long") !=
        std::string::npos);
}

TEST_CASE("constant expressions fold with C semantics") {
  CHECK(expr_dump("1 + 2 * 3") == "7:int");
  CHECK(expr_dump("(1 << 4) | 1") == "17:int");
  CHECK(expr_dump("-7 % 3") == "-1:int");
  CHECK(expr_dump("-7 / 2") == "-3:int");
  CHECK(expr_dump("0x10 + 010 + 0") == "24:int");
  CHECK(expr_dump("-1 < 0u") == "0:int");  // -1 converts to unsigned
  CHECK(expr_dump("-1 < 0") == "1:int");
  CHECK(expr_dump("(char)300") == "44:char");
  CHECK(expr_dump("(unsigned char)-1") == "255:unsigned char");
  CHECK(expr_dump("1 ? 2 : 3") == "2:int");
  // D computes in 64 bits: a result is not narrowed to its type, only a cast narrows.
  CHECK(expr_dump("2147483647 + 1") == "2147483648:int");
  CHECK(expr_dump("(2147483647 + 1) < 0") == "0:int");
  CHECK(expr_dump("(int)(2147483647 + 1)") == "-2147483648:int");
  CHECK(expr_dump("1024 * 1024 * 1024 * 4") == "4294967296:int");
  CHECK(expr_dump("4294967295") == "4294967295:long long");
  CHECK(expr_dump("0xffffffff") == "4294967295:unsigned int");
  CHECK(expr_dump("10ul") == "10:unsigned long long");
  CHECK(expr_dump("sizeof(int) + sizeof(uint64_t)") == "12:size_t");
  CHECK(expr_dump("sizeof (a)") == "4:size_t");
  CHECK(expr_dump("!0 + !5") == "1:int");
  CHECK(expr_dump("1 ^^ 1") == "0:int");
  CHECK(expr_dump("SSLEEP + SRUN") == "3:int");  // inlines from procfs.d
}

TEST_CASE("character and string literals") {
  CHECK(expr_dump("'a'") == "97:int");
  CHECK(expr_dump("'\\n'") == "10:int");
  CHECK(expr_dump("'\\x41'") == "65:int");
  CHECK(expr_dump("'\\101'") == "65:int");
  CHECK(expr_dump("'\\''") == "39:int");
  CHECK(expr_dump("\"tab\\there\\x41\\101\\\\ \\\"q\\\"\"") == "\"tab\\x09hereAA\\ \"q\"\":string");
  CHECK(expr_dump("\"caf\xc3\xa9\"") == "\"caf\\xc3\\xa9\":string");
}

TEST_CASE("comments, including non-ASCII text, null directives and an interpreter line") {
  std::string text =
      "#!/usr/bin/env -S dsched -s\n"
      "/* a comment with \xe2\x80\x99 in it */\n"
      "#\n"  // a null directive, ignored as in C
      "  # \t\n"
      "BEGIN // trailing comment\n"
      "{\n"
      "  x = 1; /* inside */ y = 2;\n"
      "}\n";
  CheckResult r = compile_text(text);
  INFO(r.error);
  REQUIRE(r.program);
  CHECK(r.program->globals.size() == 2);
}

TEST_CASE("probe descriptions: fields, wildcards, rates, several per clause") {
  auto probes_of = [](const std::string& text) {
    CheckResult r = compile_text(text + " {}");
    std::string names;
    if (!r.program) return "ERROR: " + r.error;
    for (const auto* p : r.program->clauses[0].probes) names += (names.empty() ? "" : " ") + p->full_name();
    return names;
  };
  CHECK(probes_of("BEGIN") == "dtrace:::BEGIN");
  CHECK(probes_of("dtrace:::END") == "dtrace:::END");
  CHECK(probes_of(":::BEGIN") == "dtrace:::BEGIN");
  CHECK(probes_of("sched:vmlinux::on-cpu") == "sched:vmlinux::on-cpu");
  // A wildcard skips probes this kernel cannot offer (remain-cpu); naming one is an error.
  CHECK(probes_of("sched:::*-cpu") == "sched:vmlinux::off-cpu sched:vmlinux::on-cpu");
  CHECK(probes_of("sched:::[eo]n*") == "sched:vmlinux::enqueue sched:vmlinux::on-cpu");
  CHECK(probes_of("sched:::de?ueue") == "sched:vmlinux::dequeue");
  CHECK(probes_of("tick-10sec") == "profile:::tick-10sec");
  CHECK(probes_of("profile:::profile-997hz") == "profile:::profile-997hz");
  CHECK(probes_of("sched:::tick,\n  sched:::wakeup ,sched:::tick") ==
        "sched:vmlinux::tick sched:vmlinux::wakeup");
  CHECK(probes_of("proc:::exec-success") == "proc:vmlinux::exec-success");
}

TEST_CASE("a predicate ends at the slash before the body, not at a division") {
  std::string d = dump_of("BEGIN /10 / 2 == 5/ { x = 1 / 1; }\nEND/pid/2/{}");
  CHECK(d.find("clause 0: dtrace:::BEGIN #1\n  predicate 1:int\n  (= (global x#0):int 1:int):int") !=
        std::string::npos);
  CHECK(d.find("predicate (/ pid:pid_t 2:int):pid_t") != std::string::npos);
}

TEST_CASE("a clause without a body on the command line, and the last statement without a semicolon") {
  CheckResult r = check_sources({{"-n", "BEGIN\nEND { x = 1; y = 2 }", true}});
  INFO(r.error);
  REQUIRE(r.program);
  CHECK(r.program->clauses.size() == 2);
  CHECK(r.program->clauses[0].statements.empty());
  CHECK(r.program->clauses[1].statements.size() == 2);
  // In a script file a description needs a predicate or actions, and a predicate needs actions.
  CHECK(error_of("BEGIN\nEND { x = 1; }")
            .ends_with("line 1: expected predicate and/or actions following probe description"));
  CHECK(check_sources({{"-n", "BEGIN /1/", true}}).error.find("expected actions following predicate") !=
        std::string::npos);
}

TEST_CASE("declarations: scalars, associative arrays, strings, structs, typedefs") {
  std::string d = dump_of(
      "int maxlen;\n"
      "int spec[int];\n"
      "string names[int, string];\n"
      "unsigned long long total;\n"
      "int64_t delta;\n"
      "self int depth;\n"
      "this string label;\n"
      "struct point { char tag; int x; long long y; char name[3]; };\n"
      "typedef struct point point_t;\n"
      "point_t *where;\n"
      "BEGIN { x = sizeof(point_t) + offsetof(struct point, y) + offsetof(point_t, name); }");
  CHECK(d.find("#0 maxlen: int (declared)") != std::string::npos);
  CHECK(d.find("#1 spec[int]: int (declared)") != std::string::npos);
  CHECK(d.find("#2 names[int, string]: string (declared)") != std::string::npos);
  CHECK(d.find("#3 total: unsigned long long (declared)") != std::string::npos);
  CHECK(d.find("#4 delta: int64_t (declared)") != std::string::npos);
  CHECK(d.find("#5 where: struct point * (declared)") != std::string::npos);
  CHECK(d.find("thread-locals:\n  #0 depth: int (declared)") != std::string::npos);
  CHECK(d.find("clause-locals:\n  #0 label: string (declared)") != std::string::npos);
  // struct point: tag @0, x @4, y @8, name @16, size 24 (C layout).
  CHECK(d.find("(= (global x#6):size_t 48:size_t)") != std::string::npos);
}

TEST_CASE("if/else: blocks, single statements, else if, and predicated clauses") {
  std::string d = dump_of(
      "int a, b, c;\n"
      "BEGIN /a == 0/ {\n"
      "  a = 1;\n"
      "  if (a > 0) { b = 1; c = 2; } else if (a < 0) b = 2; else { }\n"
      "  if (a) if (b) c = 3; else c = 4;\n"  // the else belongs to the nearest if
      "  b = 5\n"
      "}");
  INFO(d);
  // The first clause keeps the predicate and computes the first condition once.
  CHECK(d.find("clause 0: dtrace:::BEGIN #1\n  predicate (== (global a#0):int 0:int):int\n"
               "  (= (global a#0):int 1:int):int\n"
               "  (= (this if.0#0):int (! (! (> (global a#0):int 0:int):int):int):int):int\n"
               "  (= (this if.2#2):int (! (this if.0#0):int):int):int\n") != std::string::npos);
  CHECK(d.find("clause 1: dtrace:::BEGIN #1\n  predicate (this if.0#0):int\n"
               "  (= (global b#1):int 1:int):int\n") != std::string::npos);
  // The dangling else: if.7 guards `c = 4`, reached only when a is true and b false.
  CHECK(d.find("(= (this if.9#9):int (! (this if.7#7):int):int):int") != std::string::npos);
  CHECK(d.find("predicate (this if.9#9):int\n  (= (global c#2):int 4:int):int") != std::string::npos);
  CHECK(d.find("(= (global b#1):int 5:int):int") != std::string::npos);
  CHECK(error_of("BEGIN { if (1) trace(1) else trace(2); }").find("syntax error near \"else\"") != std::string::npos);
  CHECK(error_of("BEGIN { else trace(2); }").find("syntax error near \"else\"") != std::string::npos);
}

TEST_CASE("bit-fields, prototypes and parenthesised declarators") {
  std::string d = dump_of(
      "struct bits { int a:3; unsigned b:6; int :0; char c:2; long d; };\n"
      "int foo(int);\n"
      "int bar(void);\n"
      "extern int printf(const char *, ...);\n"
      "typedef int (*handler_t)(int, char *name);\n"
      "int (*rows)[4];\n"
      "struct bits s;\n"
      "BEGIN { x = sizeof (struct bits); y = sizeof (handler_t); z = sizeof (*rows); s.c = s.a; }");
  INFO(d);
  // a: bits 0-2, b: bits 3-8 of the first int; :0 closes it; c: byte 4; d: offset 8; size 16.
  CHECK(d.find("(= (global x#2):size_t 16:size_t)") != std::string::npos);
  CHECK(d.find("(= (global y#3):size_t 8:size_t)") != std::string::npos);
  CHECK(d.find("(= (global z#4):size_t 16:size_t)") != std::string::npos);
  // Bit-fields are ints in expressions (C's promotion).
  CHECK(d.find("(= (. (global s#1):struct bits c @4.0:2):int (. (global s#1):struct bits a @0.0:3):int):int") !=
        std::string::npos);
  CHECK(d.find("rows: int [4] * (declared)") != std::string::npos);
}

TEST_CASE("enums and inlines") {
  std::string d = dump_of(
      "enum colours { A_ZERO, B_ONE, C_FIVE = 5, D_SIX };\n"
      "inline int TEN = 2 * C_FIVE;\n"
      "inline string WHO = \"me\";\n"
      "BEGIN { x = D_SIX + TEN; y = WHO; }");
  CHECK(d.find("(= (global x#0):int 16:int):int") != std::string::npos);
  CHECK(d.find("(= (global y#1):string \"me\":string):string") != std::string::npos);
}

TEST_CASE("pragmas set typed options") {
  CheckResult r = compile_text(
      "#pragma D option quiet\n#pragma D option bufsize=4m\n#pragma D option switchrate=10hz\n"
      "#pragma D option aggrate=1ms\n#pragma D option strsize = 512\n#pragma ident \"ignored\"\n"
      "#pragma D option bufpolicy=switch\n#pragma D option statusrate=5000\nBEGIN { x = execname; }");
  INFO(r.error);
  REQUIRE(r.program);
  const dsched::abi::Options& o = r.program->options;
  CHECK(o.quiet());
  CHECK(o.number("bufsize") == 4 << 20);
  CHECK(o.number("switchrate") == 100000000);
  CHECK(o.number("aggrate") == 1000000);
  CHECK(o.number("statusrate") == 5000);  // nanoseconds without a unit, as in DTrace
  CHECK(o.strsize() == 512);
  CHECK(o.text("bufpolicy") == "switch");
  // strsize characters and the NUL, in whole words.
  CHECK(o.string_capacity() == 513);
  CHECK(r.program->types->string_type()->size == 520);
  CHECK(r.program->globals[0].type->size == 520);
}

// As DTrace reads a run-time flag: empty or one of its words for off (any case) is off; a word for
// on or any number is on, 0 too, as DTrace keeps the number and tests whether the option is set.
// A compiler flag takes no value.
TEST_CASE("flag options take DTrace's words for on and off") {
  CheckResult r = compile_text(
      "#pragma D option quiet=0\n#pragma D option flowindent=ON\n#pragma D option rawbytes=false\n"
      "#pragma D option aggsortkey=enabled\n#pragma D option aggsortrev=\n#pragma D option zdefs\nBEGIN {}");
  INFO(r.error);
  REQUIRE(r.program);
  const dsched::abi::Options& o = r.program->options;
  CHECK(o.quiet());
  CHECK(o.flag("flowindent"));
  CHECK(!o.flag("rawbytes"));
  CHECK(o.flag("aggsortkey"));
  CHECK(!o.flag("aggsortrev"));
  CHECK(o.flag("zdefs"));
  CHECK(error_of("#pragma D option quiet=maybe\nBEGIN {}") ==
        "dsched: failed to compile script test.d: line 1: invalid value for option quiet: maybe");
  CHECK(error_of("#pragma D option quiet=-1\nBEGIN {}") ==
        "dsched: failed to compile script test.d: line 1: invalid value for option quiet: -1");
  CHECK(error_of("#pragma D option zdefs=set\nBEGIN {}") ==
        "dsched: failed to compile script test.d: line 1: invalid value for option zdefs: set");
}

TEST_CASE("every buffer policy is accepted") {
  for (const char* policy : {"switch", "fill", "ring"}) {
    CheckResult r = compile_text(std::string("#pragma D option bufpolicy=") + policy + "\nBEGIN {}");
    INFO(r.error);
    REQUIRE(r.program);
    CHECK(r.program->options.text("bufpolicy") == policy);
  }
}

TEST_CASE("aggpercpu is accepted by pragma") {
  CheckResult r = compile_text("#pragma D option aggpercpu\nBEGIN {}");
  INFO(r.error);
  REQUIRE(r.program);
  CHECK(r.program->options.flag("aggpercpu"));
}

// As in dtrace(1M), -x options are set before the script compiles, so its pragmas win.
TEST_CASE("pragmas override -x options; -w allows destructive actions") {
  FrontendOptions options;
  options.cli_options.set("strsize", {dsched::abi::OptionKind::Size, 64, "64"});
  options.cli_options.set("quiet", {dsched::abi::OptionKind::Flag, 1, ""});
  options.cli_options.set("nspec", {dsched::abi::OptionKind::Count, 4, "4"});
  options.destructive = true;
  CheckResult r = compile_text("#pragma D option strsize=128\nBEGIN { system(\"true\"); }", "t.d", options);
  INFO(r.error);
  REQUIRE(r.program);
  CHECK(r.program->options.strsize() == 128);
  CHECK(r.program->options.nspec() == 4);
  CHECK(r.program->options.quiet());
  CHECK(r.program->options.destructive());
}

TEST_CASE("options dsched does not implement are refused, never ignored") {
  CHECK(error_of("#pragma D option temporal\nBEGIN {}") ==
        "dsched: failed to compile script test.d: line 1: option temporal is not supported");
  CHECK(error_of("#pragma D option bufpolicy=wrap\nBEGIN {}") ==
        "dsched: failed to compile script test.d: line 1: invalid value for option bufpolicy: wrap");
  CHECK(error_of("#pragma D option agghist\nBEGIN {}") ==
        "dsched: failed to compile script test.d: line 1: option agghist is not supported");
  CHECK(error_of("#pragma D option nosuch=1\nBEGIN {}") ==
        "dsched: failed to compile script test.d: line 1: unrecognized option: nosuch");
  CHECK(error_of("#pragma D option quiet=please\nBEGIN {}") ==
        "dsched: failed to compile script test.d: line 1: invalid value for option quiet: please");
  CHECK(error_of("BEGIN { setopt(\"aggpack\"); }").find("option aggpack is not supported") != std::string::npos);
}

TEST_CASE("macro variables") {
  FrontendOptions options;
  options.macro_args = {"m.d", "42", "hello", "0x10"};
  options.target_pid = 1234;
  CheckResult r = compile_text("BEGIN { a = $1 + $3; b = $$2; c = $target; d = $$1; e = $pid; }", "m.d", options);
  INFO(r.error);
  REQUIRE(r.program);
  std::string d = dump(*r.program);
  CHECK(d.find("(= (global a#0):int 58:int):int") != std::string::npos);
  CHECK(d.find("(= (global b#1):string \"hello\":string)") != std::string::npos);
  CHECK(d.find("(= (global c#2):int 1234:int)") != std::string::npos);
  CHECK(d.find("(= (global d#3):string \"42\":string)") != std::string::npos);
  // An argument that is not an integer is an identifier, or else a string without its quotes.
  CHECK(error_of("BEGIN { x = $2; }", options) ==
        "dsched: failed to compile script test.d: line 1: failed to resolve hello: Unknown variable name");
  options.macro_args = {"m.d", "execname", "a.b c", "\"quoted\"", "10UL", "-5"};
  CheckResult args = compile_text("BEGIN { a = $1; b = $2; c = $3; d = $4; e = $5; }", "m.d", options);
  INFO(args.error);
  REQUIRE(args.program);
  std::string typed = dump(*args.program);
  CHECK(typed.find("(= (global a#0):string execname:string)") != std::string::npos);
  CHECK(typed.find("(= (global b#1):string \"a.b c\":string)") != std::string::npos);
  CHECK(typed.find("(= (global c#2):string \"quoted\":string)") != std::string::npos);
  CHECK(typed.find("(= (global d#3):unsigned long long 10:unsigned long long)") != std::string::npos);
  CHECK(typed.find("(= (global e#4):int -5:int)") != std::string::npos);
  // In a probe description $N and $$N both give the argument's text.
  options.macro_args = {"m.d", "on-cpu"};
  for (const char* text : {"sched:::$$1 { }", "sched:::$1 { }"}) {
    CheckResult described = compile_text(text, "m.d", options);
    REQUIRE(described.program);
    CHECK(described.program->clauses[0].descriptions[0].text == "sched:::on-cpu");
  }
  options.macro_args = {"m.d"};
  CHECK(compile_text("#pragma D option defaultargs\nBEGIN { x = $1; y = $$1; }", "m.d", options).program);
}

TEST_CASE("-C runs the C preprocessor") {
  FrontendOptions options;
  options.preprocess = true;
  options.cpp_args = {"-DLIMIT=7"};
  CheckResult r = compile_text("#define TWICE(x) ((x) * 2)\nBEGIN { x = TWICE(LIMIT); }", "c.d", options);
  INFO(r.error);
  REQUIRE(r.program);
  CHECK(dump(*r.program).find("(= (global x#0):int 14:int):int") != std::string::npos);
  // DTrace's predefined macros, and __GNUC__ undefined so that system headers read as plain C.
  CheckResult defined = compile_text(
      "#include <sys/errno.h>\n"
      "#if defined(__SUNW_D) && defined(__SUNW_D_64) && defined(__SVR4) && defined(__Linux) && !defined(__GNUC__)\n"
      "BEGIN { v = __SUNW_D_VERSION; e = EINVAL; }\n"
      "#endif\n",
      "c.d", options);
  INFO(defined.error);
  REQUIRE(defined.program);
  CHECK(dump(*defined.program).find("(= (global v#0):int 16830464:int):int") != std::string::npos);
  CHECK(dump(*defined.program).find("(= (global e#1):int 22:int):int") != std::string::npos);
  CheckResult bad = compile_text("#error stop here\nBEGIN {}", "c.d", options);
  CHECK(bad.error.starts_with("dsched: failed to compile script c.d: C preprocessor failed: "));
  CHECK(bad.error.find("stop here") != std::string::npos);

  std::string path = getenv("PATH") ? getenv("PATH") : "";
  setenv("PATH", "/nonexistent", 1);
  CheckResult missing = compile_text("BEGIN {}", "c.d", options);
  setenv("PATH", path.c_str(), 1);
  CHECK(missing.error == "dsched: failed to compile script c.d: cannot run cpp: No such file or directory");
}

TEST_CASE("errors in -n text use DTrace's probe specifier wording") {
  CheckResult r = test::check_sources({{"sched:::nosuch", "sched:::nosuch", true}}, {});
  CHECK(r.error ==
        "dsched: invalid probe specifier sched:::nosuch: probe description sched:::nosuch does not "
        "match any probes\n  --> <command line>:1:1\n 1 | sched:::nosuch\n   | ^");
  CheckResult s = test::check_sources({{"BEGIN { x = }", "BEGIN { x = }", true}}, {});
  CHECK(s.error.starts_with("dsched: invalid probe specifier BEGIN { x = }: syntax error near \"}\"\n"));
}

}  // TEST_SUITE
