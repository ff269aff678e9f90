// Which files of the embedded library a compile parses: the declaration scan against the parser,
// the selection for typical scripts, and compiles the selection alone would miss.
#include "lang/library_selection.h"

#include <doctest/doctest.h>

#include <set>
#include <string>
#include <unordered_set>

#include "lang/parse_context.h"
#include "lang/typedefs.h"
#include "lang/types.h"
#include "stdlib.h"
#include "test_support.h"

using namespace dsched::lang;
using namespace dsched::lang::test;

namespace {

void add_record_names(const DeclSpec& spec, std::unordered_set<std::string>& names);

void add_declarator_names(const Declarator& d, std::unordered_set<std::string>& names) {
  if (!d.name.empty()) names.insert(d.name);
  if (d.inner) add_declarator_names(*d.inner, names);
}

// What a declaration's type defines: a struct, union or enum with a body (and, inside it, any
// nested definitions), and an enum's constants.
void add_record_names(const DeclSpec& spec, std::unordered_set<std::string>& names) {
  if (spec.record && spec.record->has_body) {
    if (!spec.record->tag.empty()) names.insert(spec.record->tag);
    for (const FieldDecl& field : spec.record->fields) add_record_names(field.spec, names);
  }
  if (spec.enumeration && spec.enumeration->has_body) {
    if (!spec.enumeration->tag.empty()) names.insert(spec.enumeration->tag);
    for (const Enumerator& e : spec.enumeration->enumerators) names.insert(e.name);
  }
}

// Every name the parser finds declared at file scope in each library file, in compile order.
std::vector<std::unordered_set<std::string>> parsed_declarations() {
  TypeUniverse types(256);
  std::unordered_set<std::string> typedef_names = builtin_typedef_names();
  std::vector<std::unordered_set<std::string>> all;
  for (const dsched::stdlib::Source& source : dsched::stdlib::sources()) {
    ParseTree tree;
    ParseContext ctx{types, typedef_names, tree};
    parse_source(std::string(source.text), 0, ctx);
    std::unordered_set<std::string> names;
    for (const TopItem& item : tree.items) {
      const auto* declaration = std::get_if<DeclarationSyntax>(&item);
      if (!declaration) continue;
      add_record_names(declaration->spec, names);
      for (const InitDeclarator& d : declaration->declarators) add_declarator_names(d.declarator, names);
    }
    all.push_back(std::move(names));
  }
  return all;
}

// The names of the library files a compile of `text` parses.
std::set<std::string> selected(const std::string& text) {
  std::vector<std::string_view> library;
  for (const dsched::stdlib::Source& source : dsched::stdlib::sources()) library.push_back(source.text);
  std::vector<std::string_view> user{text};
  std::vector<bool> needed = needed_library_files(library, user);
  std::set<std::string> names;
  for (size_t i = 0; i < needed.size(); ++i)
    if (needed[i]) names.emplace(dsched::stdlib::sources()[i].name);
  return names;
}

}  // namespace

TEST_SUITE("library") {
  TEST_CASE("the scan finds every name the parser finds declared in each library file") {
    std::vector<std::unordered_set<std::string>> parsed = parsed_declarations();
    for (size_t i = 0; i < parsed.size(); ++i) {
      const dsched::stdlib::Source& source = dsched::stdlib::sources()[i];
      Words scanned = declared_names(source.text);
      CHECK(!parsed[i].empty());
      for (const std::string& name : parsed[i]) {
        INFO(source.name, ": ", name);
        CHECK(scanned.contains(name));
      }
    }
  }

  TEST_CASE("the scan takes definitions, not mentions") {
    Words names = declared_names(
        "/* typedef int commented_t; */\n#pragma D depends_on library x.d\n"
        "typedef struct point { int x; struct other *o; } point_t, *point_p;\n"
        "inline int ANSWER = 42;\ninline string WORD = \"not_a_name\";\n"
        "enum color { RED, GREEN = 5, BLUE };\ntypedef char name_t[16];\n"
        "translator point_t < struct task_struct *T > { x = T->pid; };\n");
    CHECK(names == Words{"point", "point_t", "point_p", "ANSWER", "WORD", "color", "RED", "GREEN", "BLUE", "name_t"});
  }

  TEST_CASE("a script gets the library files its names, built-ins and providers lead to") {
    CHECK(selected("BEGIN { exit(0); }").empty());
    CHECK(selected("BEGIN { trace(EINTR); }").contains("errno.d"));
    CHECK(!selected("BEGIN { trace(EINTR); }").contains("tcp.d"));
    // A string counts too: selecting more is always safe.
    CHECK(selected("BEGIN { printf(\"SIGKILL\"); }").contains("signal.d"));
    std::set<std::string> sched = selected("sched:::off-cpu { @[args[1]->pr_fname] = count(); }");
    CHECK(sched.contains("procfs.d"));
    CHECK(sched.contains("sched.d"));
    CHECK(!sched.contains("tcp.d"));
    CHECK(!sched.contains("io.d"));
    CHECK(selected("BEGIN { trace(curpsinfo->pr_pid); }").contains("procfs.d"));
    CHECK(selected("BEGIN { trace(fds[0].fi_name); }").contains("io.d"));
    // The tcp provider's arguments are tcp.d's types, which use ip.d's and net.d's.
    std::set<std::string> tcp = selected("tcp:::send { trace(args[4]->tcp_flags); }");
    for (const char* file : {"tcp.d", "ip.d", "net.d"}) {
      INFO(file);
      CHECK(tcp.contains(file));
    }
  }

  TEST_CASE("a compile the selection cannot serve is redone with the whole library") {
    // A wildcard names the sched provider without its name: its arguments' types are found only
    // when the probes match, after the selected files were parsed.
    CheckResult r = compile_text("s*d:::off-cpu { @[args[1]->pr_fname] = count(); }");
    INFO(r.error);
    CHECK(r.program);
    // Errors are those of a compile with the whole library.
    CHECK(error_of("BEGIN { trace(nosuch_t); }").find("nosuch_t") != std::string::npos);
  }

}  // TEST_SUITE
