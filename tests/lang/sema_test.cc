// Semantic analysis: translated arguments, variables, aggregations, calls, kernel types.
#include <doctest/doctest.h>

#include <algorithm>

#include <bpf/btf.h>

#include "btf_types.h"
#include "lang/builtins/builtin.h"
#include "test_support.h"

using namespace dsched::lang;
using namespace dsched::lang::test;

namespace {
bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}
}  // namespace

TEST_SUITE("sema") {

TEST_CASE("args[N]->member becomes the translator's expression over the native argument") {
  std::string d = dump_of("sched:::wakeup { x = args[1]->pr_pid; y = args[0]->pr_lwpid; }");
  CHECK(contains(d, "(= (global x#0):pid_t (-> (probe-arg 1):struct task_struct * tgid @"));
  CHECK(contains(d, "(= (global y#1):id_t (-> (probe-arg 0):struct task_struct * pid @"));
  CHECK(!contains(d, "psinfo"));  // nothing translated is left for the code generator
}

TEST_CASE("a clause is compiled for each description when their probes' args[] differ") {
  // Each description translates args[] from its own probe's arguments.
  CheckResult tcp = compile_text("tcp:::accept-established, tcp:::accept-refused { x = args[4]->tcp_sport; }");
  REQUIRE(tcp.program);
  REQUIRE(tcp.program->clauses.size() == 2);
  CHECK(tcp.program->clauses[0].probes.at(0)->name == "accept-established");
  CHECK(tcp.program->clauses[1].probes.at(0)->name == "accept-refused");
  // Alike probes stay one clause; so does one description whose probes differ, where args[] is
  // ambiguous.
  CheckResult alike = compile_text("syscall::read:entry, syscall::write:entry { x = arg0; }");
  REQUIRE(alike.program);
  CHECK(alike.program->clauses.size() == 1);
  CHECK(contains(error_of("proc:::ex* { trace(args[0]); }"), "args[0] has different types"));
}

TEST_CASE("curlwpsinfo, curpsinfo and curcpu translate curthread and cpu") {
  std::string d = dump_of(
      "profile:::tick-1sec { a = curpsinfo->pr_ppid; b = curcpu->cpu_id; c = curcpu->cpu_pset; "
      "d = curlwpsinfo->pr_pri; }");
  CHECK(contains(d, "(-> (-> curthread:struct task_struct * real_parent @"));
  CHECK(contains(d, "(= (global b#1):processorid_t cpu:processorid_t)"));
  CHECK(contains(d, "(= (global c#2):psetid_t -1:psetid_t)"));
  CHECK(contains(d, "(= (global d#3):int (-> curthread:struct task_struct * prio @"));
}

TEST_CASE("xlate<> and the pointer/value forms") {
  std::string d = dump_of("BEGIN { a = xlate<psinfo_t *>(curthread)->pr_pid; b = (*curpsinfo).pr_uid; "
                          "c = xlate<cpuinfo_t>(3).cpu_id; }");
  CHECK(contains(d, "(= (global a#0):pid_t (-> curthread:struct task_struct * tgid @"));
  CHECK(contains(d, "(= (global b#1):uid_t (. (-> (-> curthread:struct task_struct * cred @"));
  CHECK(contains(d, "(= (global c#2):processorid_t 3:processorid_t)"));
}

TEST_CASE("stringof of a translated char array; char arrays become strings when stored") {
  std::string d = dump_of("sched:::tick { @[stringof(args[1]->pr_fname)] = count(); self->n = args[1]->pr_fname; }");
  CHECK(contains(d, "keys [string]"));
  CHECK(contains(d, "(= (self n#0):string (cast (-> (probe-arg 1):struct task_struct * comm @"));
}

TEST_CASE("enqueue's args[3] is a plain int; args[2] a CPU number") {
  std::string d = dump_of("sched:::enqueue { x = args[3]; y = args[2]->cpu_id; }");
  CHECK(contains(d, "(= (global x#0):int (probe-arg 3):int):int"));
  CHECK(contains(d, "(= (global y#1):processorid_t (probe-arg 2):processorid_t)"));
}

TEST_CASE("stack frame counts: DTrace for Linux's defaults, lowered to maxframes") {
  auto frames = [](const std::string& key, const std::string& pragmas = "") -> int64_t {
    CheckResult r = compile_text(pragmas + "profile-99 { @[" + key + "] = count(); }");
    if (!r.program) return -1;
    return r.program->aggregations.at(0).key_types.at(0)->addresses.frames;
  };
  CHECK(frames("stack()") == 20);
  CHECK(frames("ustack()") == 100);
  CHECK(frames("stack(5)") == 5);
  CHECK(frames("stack(500)") == 127);
  CHECK(frames("ustack(300)") == 127);
  CHECK(frames("stack()", "#pragma D option stackframes=400\n") == 127);
  CHECK(frames("ustack(50)", "#pragma D option maxframes=10\n") == 10);
  CHECK(frames("stack()", "#pragma D option maxframes=200\n") == -1);
}

TEST_CASE("enums carry their enumerators: a tagged D enum's and the kernel's") {
  CheckResult r = compile_text("enum color { RED, GREEN = 5 }; enum color c; BEGIN { k = (enum pid_type)0; }");
  REQUIRE(r.program);
  auto global = [&](const std::string& name) -> const Type* {
    for (const Variable& v : r.program->globals)
      if (v.name == name) return v.type;
    return nullptr;
  };
  const Type* color = global("c");
  REQUIRE(color);
  CHECK(type_name(color) == "enum color");
  CHECK(color->enumerators == std::vector<std::pair<std::string, int64_t>>{{"RED", 0}, {"GREEN", 5}});
  const Type* pid_type = global("k");
  REQUIRE(pid_type);
  CHECK(type_name(pid_type) == "enum pid_type");
  CHECK(std::find(pid_type->enumerators.begin(), pid_type->enumerators.end(), std::pair<std::string, int64_t>{"PIDTYPE_PID", 0}) !=
        pid_type->enumerators.end());
}

TEST_CASE("built-in variables have D's types") {
  CheckResult r = compile_text(
      "BEGIN { a = timestamp; b = walltimestamp; c = pid; d = tid; e = execname; f = uid; "
      "g = arg0; h = probename; i = curthread; j = epid; k = stackdepth; }");
  INFO(r.error);
  REQUIRE(r.program);
  std::vector<std::string> types;
  for (const Variable& v : r.program->globals) types.push_back(type_name(v.type));
  CHECK(types == std::vector<std::string>{"uint64_t", "int64_t", "pid_t", "id_t", "string", "uid_t",
                                          "int64_t", "string", "struct task_struct *", "uint32_t", "uint32_t"});
}

TEST_CASE("errno may be read in any clause, as in DTrace") {
  CHECK(error_of("BEGIN { x = errno; }") == "(compiled)");
  CHECK(error_of("syscall::read:entry, syscall::read:return, sched:::on-cpu { x = errno; }") == "(compiled)");
}

TEST_CASE("variables: implicit declaration by first assignment, ids by scope") {
  CheckResult r = compile_text(
      "BEGIN { start = timestamp; self->ts = 1; this->x = \"s\"; counts[pid, execname] = 0; }\n"
      "END { counts[1, \"a\"]++; self->ts += 2; }");
  INFO(r.error);
  REQUIRE(r.program);
  const Program& p = *r.program;
  REQUIRE(p.globals.size() == 2);
  CHECK(p.globals[1].name == "counts");
  REQUIRE(p.globals[1].key_types.size() == 2);
  CHECK(p.globals[1].key_types[1]->is_string());
  CHECK(p.thread_locals.size() == 1);
  CHECK(p.clause_locals[0].type->is_string());
  CHECK(!p.globals[0].declared);
}

TEST_CASE("aggregations: ids in order of appearance, keys, functions, parameters") {
  CheckResult r = compile_text(
      "BEGIN { @c[execname] = count(); @q = quantize(1); @[pid, \"x\"] = sum(2); "
      "@l = llquantize(timestamp, 10, 0, 6, 20); @c[\"y\"] = count(); @s = stddev(3); "
      "@m = max(1); @n = min(1); @a = avg(1); }");
  INFO(r.error);
  REQUIRE(r.program);
  const auto& aggs = r.program->aggregations;
  REQUIRE(aggs.size() == 8);
  CHECK(aggs[0].name == "c");
  CHECK(aggs[0].function->name() == "count");
  CHECK(aggs[0].arg_type == nullptr);
  CHECK(aggs[2].name == "");
  CHECK(aggs[2].key_types.size() == 2);
  CHECK(aggs[3].params == std::vector<int64_t>{10, 0, 6, 20});
  CHECK(aggs[5].function->name() == "max");
  CHECK(r.program->clauses[0].statements[4]->agg_id == 0);
}

TEST_CASE("actions and subroutines type-check") {
  CheckResult r = compile_text(
      "BEGIN { trace(pid); trace(\"s\"); printf(\"%s %d %5.2x %-*d %%\\n\", execname, 1, 2, 3, 4); "
      "s = strjoin(execname, \"x\"); n = strlen(s); t = substr(s, 1, 2); u = basename(\"/a/b\"); "
      "v = lltostr(12, 16); w = rand(); sp = speculation(); exit(0); }\n"
      "BEGIN { speculate(sp); trace(1); }\n"
      "END { @a = count(); printa(@a); printa(\"%@d\\n\", @a); normalize(@a, 10); denormalize(@a); "
      "trunc(@a, 5); trunc(@a); clear(@a); setopt(\"quiet\"); "
      "x = copyinstr(arg0); p = copyin(arg1, 8); "
      "ctprof_compare(\"/tmp/a\", \"/tmp/b\", \"--sort-by run_time_ns\"); }\n"
      "END { commit(sp); discard(sp); }");
  INFO(r.error);
  REQUIRE(r.program);
  CHECK(r.program->uses_speculation);
  std::string d = dump(*r.program);
  CHECK(contains(d, "(printa @a#0):void"));
  CHECK(contains(d, "(= (global n#1):size_t (strlen (global s#0):string):size_t):size_t"));
  CHECK(contains(d, "(= (global p#8):void * (copyin arg1:int64_t 8:int):void *):void *"));
}

TEST_CASE("string comparison and the ternary operator") {
  std::string d = dump_of("BEGIN { x = execname == \"bash\" ? \"yes\" : curthread->comm; }");
  CHECK(contains(d, "(?: (== execname:string \"bash\":string):int \"yes\":string (cast (-> curthread"));
  CHECK(contains(d, ":char [16]):string):string):string\n"));
}

TEST_CASE("kernel member offsets agree with libbpf's reading of vmlinux BTF") {
  struct btf* btf = btf__load_vmlinux_btf();
  REQUIRE(btf != nullptr);
  int id = btf__find_by_name_kind(btf, "task_struct", BTF_KIND_STRUCT);
  REQUIRE(id > 0);
  const struct btf_type* t = btf__type_by_id(btf, id);
  uint32_t comm_bits = 0, tgid_bits = 0;
  const struct btf_member* m = btf_members(t);
  for (int i = 0; i < btf_vlen(t); ++i, ++m) {
    std::string name = btf__name_by_offset(btf, m->name_off);
    if (name == "comm") comm_bits = btf_member_bit_offset(t, i);
    if (name == "tgid") tgid_bits = btf_member_bit_offset(t, i);
  }
  btf__free(btf);
  CheckResult r = compile_text("BEGIN { a = curthread->comm[0]; b = curthread->tgid; }");
  INFO(r.error);
  REQUIRE(r.program);
  const auto& body = r.program->clauses[0].statements;
  const Expr& index = *body[0]->expr->operand(1);  // (cast (index (-> curthread comm) 0))?
  const Expr* comm = index.kind == ExprKind::Index ? index.operand(0) : index.operand(0)->operand(0);
  REQUIRE(comm->kind == ExprKind::Member);
  CHECK(comm->offset_bits == comm_bits);
  CHECK(comm->type->count == 16);
  const Expr& tgid = *body[1]->expr->operand(1);
  REQUIRE(tgid.kind == ExprKind::Member);
  CHECK(tgid.offset_bits == tgid_bits);
  CHECK(tgid.type->size == 4);
}

TEST_CASE("kernel BTF is read lazily: only what the script touches") {
  CheckResult none = compile_text("BEGIN { x = timestamp; } sched:::on-cpu { @[cpu] = count(); }");
  REQUIRE(none.program);
  CHECK(none.program->types->loaded_btf() == nullptr);

  CheckResult two = compile_text(
      "BEGIN { x = curthread->real_parent->pid; y = ((struct mm_struct *)arg0)->map_count; }");
  INFO(two.error);
  REQUIRE(two.program);
  const BtfTypes* btf = two.program->types->loaded_btf();
  REQUIRE(btf != nullptr);
  BtfTypes::Stats s = btf->stats();
  // task_struct and mm_struct, plus the anonymous members searched on the way to map_count.
  CHECK(s.records_expanded >= 2);
  CHECK(s.records_expanded <= 6);
  CHECK(s.types_converted * 50 < s.types_in_file);
}

TEST_CASE("destructive actions need -w; raise too") {
  CHECK(error_of("BEGIN { raise(9); }") ==
        "dsched: failed to compile script test.d: line 1: raise() is a destructive action: run with -w "
        "or #pragma D option destructive");
  CHECK(compile_text("#pragma D option destructive\nBEGIN { raise(9); }").program);
}

TEST_CASE("same-named aggregation must keep its function and parameters") {
  CHECK(error_of("BEGIN { @a = lquantize(1, 0, 10); @a = lquantize(1, 0, 20); }") ==
        "dsched: failed to compile script test.d: line 1: @a: lquantize() argument #3 differs from an earlier use");
}

}  // TEST_SUITE
