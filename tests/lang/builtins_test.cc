// Every built-in's check: a use it accepts and a use it refuses with a located message. A built-in
// registered without a case here fails the test, so each new descriptor comes with its checks.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "lang/builtins/builtin.h"
#include "test_support.h"

using namespace dsched::lang;
using namespace dsched::lang::test;

namespace {

struct Case {
  const char* builtin;
  const char* accepted;  // a program that compiles
  const char* refused;   // a program that must not
  const char* message;   // part of its error
};

// Programs run with -w (destructive actions allowed) unless they are about that.
const Case kCases[] = {
    // Actions.
    {"trace", "BEGIN { trace(1); trace(execname); trace(curthread->comm); trace(*curthread); }",
     "int big[2000]; BEGIN { trace(big); }", "trace() cannot record int [2000]: it has 8000 bytes"},
    {"printf", "BEGIN { printf(\"%d %s\\n\", 1, execname); }", "BEGIN { printf(\"%d %d\\n\", 1); }",
     "conversion #2"},
    {"printa", "BEGIN { @a[1] = count(); printa(@a); printa(\"%d %@d\\n\", @a); }", "BEGIN { printa(1); }",
     "an aggregation (@name) is expected here"},
    {"exit", "BEGIN { exit(0); }", "BEGIN { exit(\"no\"); }", "exit(): the exit status must be an integer, not string"},
    {"speculation", "BEGIN { s = speculation(); }", "BEGIN { s = speculation(1); }",
     "speculation() takes 0 arguments, not 1"},
    {"speculate", "BEGIN { speculate(1); trace(1); }", "BEGIN { speculate(\"s\"); }",
     "speculate(): the speculation id must be an integer, not string"},
    {"commit", "BEGIN { commit(1); }", "BEGIN { commit(); }", "commit() takes 1 argument, not 0"},
    {"discard", "BEGIN { trace(1); discard(1); trace(2); }", "BEGIN { discard(1, 2); }",
     "discard() takes 1 argument, not 2"},
    {"normalize", "BEGIN { @a = sum(1); normalize(@a, 10); }", "BEGIN { @a = sum(1); normalize(@a); }",
     "normalize() takes 2 arguments, not 1"},
    {"denormalize", "BEGIN { @a = sum(1); denormalize(@a); }", "BEGIN { denormalize(1); }",
     "an aggregation (@name) is expected here"},
    {"trunc", "BEGIN { @a = sum(1); trunc(@a); trunc(@a, 5); }", "BEGIN { @a = sum(1); trunc(@a, \"x\"); }",
     "trunc(): the number of entries to keep must be an integer, not string"},
    {"clear", "BEGIN { @a = sum(1); clear(@a); }", "BEGIN { clear(@nosuch); }",
     "aggregation @nosuch is used before it is defined"},
    {"setopt", "BEGIN { setopt(\"quiet\"); setopt(\"aggsortkey\", \"1\"); }", "BEGIN { setopt(\"aggpack\"); }",
     "option aggpack is not supported"},
    {"system", "BEGIN { system(\"echo %d\", 1); }", "BEGIN { system(1); }", "system() needs a string literal as its format"},
    {"freopen", "BEGIN { freopen(\"/tmp/out.%d\", pid); freopen(\"\"); }", "BEGIN { freopen(1); }",
     "freopen() needs a string literal as its format"},
    {"ftruncate", "BEGIN { ftruncate(); }", "BEGIN { ftruncate(1); }", "ftruncate() takes 0 arguments, not 1"},
    {"stop", "BEGIN { stop(); }", "BEGIN { stop(1); }", "stop() takes 0 arguments, not 1"},
    {"chill", "BEGIN { chill(1000); }", "BEGIN { chill(\"1\"); }",
     "chill(): the time in nanoseconds must be an integer, not string"},
    {"copyout", "BEGIN { this->b = alloca(4); copyout(this->b, arg0, 4); }", "BEGIN { copyout(\"a\", arg0, 1); }",
     "copyout() source must be a pointer, not string"},
    {"copyoutstr", "BEGIN { copyoutstr(execname, arg0, 16); }", "BEGIN { copyoutstr(1, arg0, 16); }",
     "copyoutstr() argument must be a string, not int"},
    {"breakpoint", nullptr, "BEGIN { breakpoint(); }", "breakpoint() is not supported on Linux"},
    {"panic", nullptr, "BEGIN { panic(); }", "panic() is not supported on Linux"},
    {"raise", "BEGIN { raise(9); }", "BEGIN { raise(\"KILL\"); }", "raise(): the signal must be an integer, not string"},
    {"ctprof_snapshot", "BEGIN { ctprof_snapshot(\"/tmp/x\"); ctprof_snapshot(\"/tmp/x\", \"--no-jemalloc\"); }",
     "BEGIN { ctprof_snapshot(1); }",
     "ctprof_snapshot() argument must be a string, not int"},
    {"ctprof_compare", "BEGIN { ctprof_compare(\"a\", \"b\", \"--limit 3\"); }", "BEGIN { ctprof_compare(\"a\"); }",
     "ctprof_compare() takes 2 to 3 arguments, not 1"},
    {"tracemem", "BEGIN { tracemem(arg0, 32); tracemem(arg0, 32, arg1); }", "BEGIN { tracemem(arg0, arg1); }",
     "tracemem() size must be an integer constant"},
    {"print", "BEGIN { print(1); print(execname); print(*curthread); print(curthread); }", "struct big { char c[70000]; }; BEGIN { print(*(struct big *)arg0); }",
     "print( ) records at most 65536"},
    {"stack", "BEGIN { stack(); @[stack(5)] = count(); }", "BEGIN { stack(0); }", "the number of frames"},
    {"ustack", "BEGIN { ustack(); ustack(3, 100); ustack(500); @[ustack(), execname] = count(); }", "BEGIN { ustack(-1); }",
     "the number of frames"},
    {"jstack", nullptr, "BEGIN { jstack(); }", "jstack() is not supported"},
    {"func", "BEGIN { func(0); @[func(0)] = count(); }", "BEGIN { x = func(0); }", "a symbol (sym(), mod(), usym()...) can only be"},
    {"sym", "BEGIN { sym(0); }", "BEGIN { sym(\"x\"); }", "the address"},
    {"mod", "BEGIN { @[mod(0)] = count(); }", "BEGIN { a[mod(0)] = 1; }", "can only be a statement of its own or an aggregation key"},
    {"ufunc", "BEGIN { @[ufunc(0)] = count(); }", "BEGIN { ufunc(); }", "ufunc"},
    {"usym", "BEGIN { usym(0); }", "BEGIN { self->x = usym(0); }", "can only be a statement"},
    {"umod", "BEGIN { umod(0); }", "BEGIN { umod(0, 1); }", "umod"},
    {"uaddr", "BEGIN { uaddr(0); }", "BEGIN { trace(uaddr(0)); }", "may not be called from a D expression"},
    // Subroutines.
    {"stringof", "BEGIN { x = stringof(curthread->comm); y = stringof(arg0); }", "BEGIN { x = stringof(*curthread); }",
     "stringof() needs a string, a char array, a pointer or an address, not struct task_struct"},
    {"strlen", "BEGIN { x = strlen(execname); }", "BEGIN { x = strlen(1); }", "strlen() argument must be a string, not int"},
    {"strjoin", "BEGIN { x = strjoin(\"a\", execname); }", "BEGIN { x = strjoin(\"a\"); }",
     "strjoin() takes 2 arguments, not 1"},
    {"substr", "BEGIN { x = substr(execname, 1, 2); }", "BEGIN { x = substr(execname, \"1\"); }",
     "substr(): the start index must be an integer, not string"},
    {"strchr", "BEGIN { x = strchr(execname, 'a'); }", "BEGIN { x = strchr(execname, \"a\"); }",
     "strchr(): the character must be an integer, not string"},
    {"strrchr", "BEGIN { x = strrchr(execname, 'a'); }", "BEGIN { x = strrchr(1, 'a'); }",
     "strrchr() argument must be a string, not int"},
    {"strstr", "BEGIN { x = strstr(execname, \"sh\"); }", "BEGIN { x = strstr(execname, 1); }",
     "strstr() argument must be a string, not int"},
    {"basename", "BEGIN { x = basename(\"/a/b\"); }", "BEGIN { x = basename(); }", "basename() takes 1 argument, not 0"},
    {"dirname", "BEGIN { x = dirname(\"/a/b\"); }", "BEGIN { x = dirname(2); }", "dirname() argument must be a string, not int"},
    {"lltostr", "BEGIN { x = lltostr(10, 16); }", "BEGIN { x = lltostr(10, 40); }",
     "lltostr() base must be between 2 and 36"},
    {"copyinstr", "BEGIN { x = copyinstr(arg0); }", "BEGIN { x = copyinstr(\"a\"); }",
     "copyinstr() address must be an integer or a pointer, not string"},
    {"copyin", "BEGIN { x = copyin(arg0, 8); }", "BEGIN { x = copyin(arg0); }", "copyin() takes 2 arguments, not 1"},
    {"alloca", "BEGIN { x = (char *)alloca(16); }", "BEGIN { n = 16; x = alloca(n); }",
     "alloca() size must be an integer constant"},
    {"bcopy", "BEGIN { x = (char *)alloca(8); bcopy(&curthread->comm[0], x, 8); }",
     "BEGIN { bcopy(&curthread->comm[0], \"text\", 4); }",
     "bcopy() destination must be a pointer, not string"},
    {"copyinto", "BEGIN { x = (char *)alloca(8); copyinto(arg0, 8, x); }", "BEGIN { copyinto(arg0, \"8\", 0); }",
     "copyinto(): the size must be an integer, not string"},
    {"rand", "BEGIN { x = rand(); }", "BEGIN { x = rand(1); }", "rand() takes 0 arguments, not 1"},
    {"strtok", "BEGIN { x = strtok(execname, \"s\"); y = strtok(NULL, \",\"); z = strtok(curthread->comm, x); }",
     "BEGIN { x = strtok(1, \",\"); }", "strtok() argument must be a string or NULL, not int"},
    {"index", "BEGIN { x = index(execname, \"s\"); y = index(execname, \"s\", 2); }", "BEGIN { x = index(execname, 's'); }",
     "index() argument must be a string, not int"},
    {"rindex", "BEGIN { x = rindex(execname, \"s\", -1); }", "BEGIN { x = rindex(execname, \"s\", \"2\"); }",
     "rindex(): the start index must be an integer, not string"},
    {"toupper", "BEGIN { x = toupper(execname); }", "BEGIN { x = toupper(1); }", "toupper() argument must be a string, not int"},
    {"strtoll", "BEGIN { x = strtoll(execname, 16); }", "BEGIN { x = strtoll(1); }", "strtoll() argument must be a string, not int"},
    {"tolower", "BEGIN { x = tolower(\"A\"); }", "BEGIN { x = tolower(\"A\", 1); }", "tolower() takes 1 argument, not 2"},
    {"cleanpath", "BEGIN { x = cleanpath(\"/a/../b\"); }", "BEGIN { x = cleanpath(1); }",
     "cleanpath() argument must be a string, not int"},
    {"d_path", "BEGIN { x = d_path(&curthread->fs->pwd); }", "BEGIN { x = d_path(curthread); }",
     "d_path() argument #1 is incompatible with prototype: expected struct path *"},
    {"__mount_point", "BEGIN { x = __mount_point(&curthread->fs->pwd); }", "BEGIN { x = __mount_point(1); }",
     "__mount_point() argument #1 is incompatible with prototype: expected struct path *"},
    {"__psargs", "BEGIN { x = __psargs(curthread); }", "BEGIN { x = __psargs(1); }",
     "__psargs() argument #1 is incompatible with prototype: expected struct task_struct *"},
    {"htons", "BEGIN { x = htons(1); }", "BEGIN { x = htons(\"1\"); }", "htons(): the value must be an integer, not string"},
    {"htonl", "BEGIN { x = htonl(1); }", "BEGIN { x = htonl(); }", "htonl() takes 1 argument, not 0"},
    {"htonll", "BEGIN { x = htonll(1); }", "BEGIN { x = htonll(1, 2); }", "htonll() takes 1 argument, not 2"},
    {"ntohs", "BEGIN { x = ntohs(1); }", "BEGIN { x = ntohs(execname); }", "ntohs(): the value must be an integer, not string"},
    {"ntohl", "BEGIN { x = ntohl(1); }", "BEGIN { x = ntohl(execname); }", "ntohl(): the value must be an integer, not string"},
    {"ntohll", "BEGIN { x = ntohll(1); }", "BEGIN { x = ntohll(execname); }", "ntohll(): the value must be an integer, not string"},
    {"getmajor", "BEGIN { x = getmajor(8388611); }", "BEGIN { x = getmajor(\"sda\"); }",
     "getmajor(): the device number must be an integer, not string"},
    {"getminor", "BEGIN { x = getminor(8388611); }", "BEGIN { x = getminor(); }", "getminor() takes 1 argument, not 0"},
    {"inet_ntoa", "BEGIN { x = inet_ntoa((ipaddr_t *)arg0); }", "BEGIN { x = inet_ntoa(\"1.2.3.4\"); }",
     "inet_ntoa() address must be a pointer, not string"},
    {"inet_ntoa6", "BEGIN { x = inet_ntoa6((in6_addr_t *)arg0); }", "BEGIN { x = inet_ntoa6(arg0, arg1); }",
     "inet_ntoa6() takes 1 argument, not 2"},
    {"inet_ntop", "BEGIN { x = inet_ntop(AF_INET6, (void *)arg0); }", "BEGIN { x = inet_ntop(\"AF_INET\", arg0); }",
     "inet_ntop(): the address type must be an integer, not string"},
    {"link_ntop", "BEGIN { x = link_ntop(ARPHRD_ETHER, (void *)arg0); }", "BEGIN { x = link_ntop(arg0); }",
     "link_ntop() takes 2 arguments, not 1"},
    {"mutex_owned", "BEGIN { x = mutex_owned(&curthread->signal->cred_guard_mutex); }",
     "BEGIN { x = mutex_owned(curthread); }", "mutex_owned() takes a struct mutex *, not struct task_struct *"},
    {"mutex_owner", "BEGIN { x = mutex_owner(&curthread->signal->cred_guard_mutex)->pid; }",
     "BEGIN { x = mutex_owner(1); }", "mutex_owner() takes a struct mutex *, not int"},
    {"mutex_type_adaptive", "BEGIN { x = mutex_type_adaptive(&curthread->signal->cred_guard_mutex); }",
     "BEGIN { x = mutex_type_adaptive(); }", "mutex_type_adaptive() takes 1 argument, not 0"},
    {"mutex_type_spin", "BEGIN { x = mutex_type_spin(&curthread->signal->cred_guard_mutex); }",
     "BEGIN { x = mutex_type_spin(&curthread->mm->mmap_lock); }",
     "mutex_type_spin() takes a struct mutex *, not struct rw_semaphore *"},
    {"rw_read_held", "BEGIN { x = rw_read_held(&curthread->mm->mmap_lock); }",
     "BEGIN { x = rw_read_held(&curthread->signal->cred_guard_mutex); }",
     "rw_read_held() takes a struct rw_semaphore *, not struct mutex *"},
    {"rw_write_held", "BEGIN { x = rw_write_held(&curthread->mm->mmap_lock); }", "BEGIN { x = rw_write_held(\"l\"); }",
     "rw_write_held() lock must be an integer or a pointer, not string"},
    {"rw_iswriter", nullptr, "BEGIN { x = rw_iswriter(&curthread->mm->mmap_lock); }",
     "rw_iswriter() is not available on Linux"},
    {"progenyof", "BEGIN { x = progenyof(1); }", "BEGIN { x = progenyof(\"init\"); }",
     "progenyof(): the process id must be an integer, not string"},
    // Aggregating functions.
    {"count", "BEGIN { @ = count(); }", "BEGIN { @ = count(1); }", "count() takes 0 arguments, not 1"},
    {"sum", "BEGIN { @ = sum(1); }", "BEGIN { @ = sum(execname); }", "the value of sum() must be an integer, not string"},
    {"avg", "BEGIN { @ = avg(1); }", "BEGIN { @ = avg(); }", "avg() takes 1 argument, not 0"},
    {"min", "BEGIN { @ = min(1); }", "BEGIN { @ = min(1, 2); }", "min() takes 1 argument, not 2"},
    {"max", "BEGIN { @ = max(1); }", "BEGIN { @ = max(\"a\"); }", "the value of max() must be an integer, not string"},
    {"stddev", "BEGIN { @ = stddev(1); }", "BEGIN { @ = stddev(); }", "stddev() takes 1 argument, not 0"},
    {"quantize", "BEGIN { @ = quantize(1); @i = quantize(1, 5); }", "BEGIN { @ = quantize(1, 2, 3); }",
     "quantize() takes 1 to 2 arguments, not 3"},
    {"lquantize", "BEGIN { @ = lquantize(1, 0, 10); @s = lquantize(1, -10, 10, 5, 2); }",
     "BEGIN { @ = lquantize(1, 10, 5); }", "lquantize() limit must not be below base"},
    {"llquantize", "BEGIN { @ = llquantize(1, 10, 0, 6, 20); }", "BEGIN { @ = llquantize(1, 10, 2, 6, 80); }",
     "llquantize() steps per magnitude must be a multiple of the factor and divide a power of it"},
    // Built-in variables: a value, and nothing may assign them.
    {"timestamp", "BEGIN { x = timestamp; }", "BEGIN { timestamp = 1; }", "cannot assign to built-in variable timestamp"},
    {"vtimestamp", "BEGIN { x = vtimestamp; }", "BEGIN { vtimestamp++; }", "cannot assign to built-in variable vtimestamp"},
    {"walltimestamp", "BEGIN { x = walltimestamp; }", "BEGIN { walltimestamp = 1; }",
     "cannot assign to built-in variable walltimestamp"},
    {"cpu", "BEGIN { x = cpu; }", "BEGIN { cpu = 1; }", "cannot assign to built-in variable cpu"},
    {"curcpu", "BEGIN { x = curcpu->cpu_id; }", "BEGIN { x = curcpu; }", "curcpu is translated"},
    {"pid", "BEGIN { x = pid; }", "BEGIN { pid = 1; }", "cannot assign to built-in variable pid"},
    {"ppid", "BEGIN { x = ppid; }", "BEGIN { ppid = 1; }", "cannot assign to built-in variable ppid"},
    {"tid", "BEGIN { x = tid; }", "BEGIN { tid = 1; }", "cannot assign to built-in variable tid"},
    {"uid", "BEGIN { x = uid; }", "BEGIN { uid = 1; }", "cannot assign to built-in variable uid"},
    {"gid", "BEGIN { x = gid; }", "BEGIN { gid = 1; }", "cannot assign to built-in variable gid"},
    {"execname", "BEGIN { x = execname; }", "BEGIN { execname = \"a\"; }", "cannot assign to built-in variable execname"},
    {"curthread", "BEGIN { x = curthread->pid; }", "BEGIN { curthread = 0; }", "cannot assign to built-in variable curthread"},
    {"curlwpsinfo", "BEGIN { x = curlwpsinfo->pr_lwpid; }", "BEGIN { x = curlwpsinfo; }", "curlwpsinfo is translated"},
    {"curpsinfo", "BEGIN { x = curpsinfo->pr_pid; }", "BEGIN { x = curpsinfo; }", "curpsinfo is translated"},
    {"probeprov", "BEGIN { x = probeprov; }", "BEGIN { probeprov = \"a\"; }", "cannot assign to built-in variable probeprov"},
    {"probemod", "BEGIN { x = probemod; }", "BEGIN { probemod = \"a\"; }", "cannot assign to built-in variable probemod"},
    {"probefunc", "BEGIN { x = probefunc; }", "BEGIN { probefunc = \"a\"; }", "cannot assign to built-in variable probefunc"},
    {"probename", "BEGIN { x = probename; }", "BEGIN { probename = \"a\"; }", "cannot assign to built-in variable probename"},
    {"cwd", "BEGIN { x = cwd; }", "BEGIN { cwd = \"/\"; }", "cannot assign to built-in variable cwd"},
    {"root", "BEGIN { x = root; }", "BEGIN { root = \"/\"; }", "cannot assign to built-in variable root"},
    {"id", "BEGIN { x = id; }", "BEGIN { id = 1; }", "cannot assign to built-in variable id"},
    {"epid", "BEGIN { x = epid; }", "BEGIN { epid = 1; }", "cannot assign to built-in variable epid"},
    {"stackdepth", "BEGIN { x = stackdepth; }", "BEGIN { stackdepth = 1; }", "cannot assign to built-in variable stackdepth"},
    {"ustackdepth", "BEGIN { x = ustackdepth; }", "BEGIN { ustackdepth = 1; }",
     "cannot assign to built-in variable ustackdepth"},
    {"caller", "BEGIN { @[func(caller)] = count(); }", "BEGIN { caller = 1; }", "cannot assign to built-in variable caller"},
    {"uregs", "syscall::read:entry { x = uregs[R_PC]; }", "BEGIN { x = uregs[R_GS]; }", "uregs[24]: Linux saves only R_R15 (0) to R_SS (20)"},
    {"ucaller", "BEGIN { @[usym(ucaller)] = count(); }", "BEGIN { ucaller++; }", "ucaller"},
    {"errno", "BEGIN { x = errno; }", "BEGIN { errno = 1; }", "cannot assign to built-in variable errno"},
    {"arg0", "BEGIN { x = arg0; }", "BEGIN { arg0 = 1; }", "cannot assign to built-in variable arg0"},
    {"arg1", "BEGIN { x = arg1; }", "BEGIN { arg1 = 1; }", "cannot assign to built-in variable arg1"},
    {"arg2", "BEGIN { x = arg2; }", "BEGIN { arg2 = 1; }", "cannot assign to built-in variable arg2"},
    {"arg3", "BEGIN { x = arg3; }", "BEGIN { arg3 = 1; }", "cannot assign to built-in variable arg3"},
    {"arg4", "BEGIN { x = arg4; }", "BEGIN { arg4 = 1; }", "cannot assign to built-in variable arg4"},
    {"arg5", "BEGIN { x = arg5; }", "BEGIN { arg5 = 1; }", "cannot assign to built-in variable arg5"},
    {"arg6", "BEGIN { x = arg6; }", "BEGIN { arg6 = 1; }", "cannot assign to built-in variable arg6"},
    {"arg7", "BEGIN { x = arg7; }", "BEGIN { arg7 = 1; }", "cannot assign to built-in variable arg7"},
    {"arg8", "BEGIN { x = arg8; }", "BEGIN { arg8 = 1; }", "cannot assign to built-in variable arg8"},
    {"arg9", "BEGIN { x = arg9; }", "BEGIN { arg9 = 1; }", "cannot assign to built-in variable arg9"},
};

FrontendOptions destructive() {
  FrontendOptions options;
  options.destructive = true;
  return options;
}

}  // namespace

TEST_SUITE("builtins") {

TEST_CASE("each built-in accepts its uses and refuses others with a located message") {
  for (const Case& c : kCases) {
    CAPTURE(c.builtin);
    if (c.accepted) {
      CheckResult ok = compile_text(c.accepted, "test.d", destructive());
      INFO(ok.error);
      CHECK(ok.program);
    }
    CheckResult bad = compile_text(c.refused, "test.d", destructive());
    INFO(bad.error);
    REQUIRE_FALSE(bad.program);
    CHECK(bad.error.find(c.message) != std::string::npos);
    CHECK(bad.error.find("\n  --> test.d:1:") != std::string::npos);  // located
  }
}

TEST_CASE("every registered built-in has its case") {
  std::set<std::string> covered;
  for (const Case& c : kCases) covered.insert(c.builtin);
  for (const Function* f : all_functions()) CHECK_MESSAGE(covered.count(std::string(f->name())), f->name());
  for (const AggregatingFunction* f : all_aggregating_functions())
    CHECK_MESSAGE(covered.count(std::string(f->name())), f->name());
  for (const BuiltinVariable* v : all_builtin_variables()) CHECK_MESSAGE(covered.count(std::string(v->name())), v->name());
}

TEST_CASE("destructive actions need -w") {
  for (const char* program :
       {"BEGIN { system(\"true\"); }", "BEGIN { raise(9); }", "BEGIN { ctprof_snapshot(\"/tmp/x\"); }"}) {
    CAPTURE(program);
    CHECK(error_of(program).find("is a destructive action: run with -w or #pragma D option destructive") !=
          std::string::npos);
  }
}

TEST_CASE("literal ctprof flags are checked when the script compiles, at the flags") {
  struct Refused {
    const char* statement;
    const char* message;
    const char* at;
  };
  const Refused refused[] = {
      {"ctprof_snapshot(\"/tmp/x\", \"--bogus\")", "ctprof_snapshot(): capture: unknown flag --bogus; valid:", "test.d:1:35"},
      {"ctprof_snapshot(\"/tmp/x\", \"-o /tmp/y\")", "ctprof_snapshot(): capture: unknown flag -o", "test.d:1:35"},
      {"ctprof_snapshot(\"/tmp/x\", \"--jemalloc-pid x\")", "--jemalloc-pid needs a process id, got 'x'", "test.d:1:35"},
      {"ctprof_compare(\"a\", \"b\", \"--limit\")", "ctprof_compare(): --limit needs a value", "test.d:1:34"},
      {"ctprof_compare(\"a\", \"b\", \"stray\")", "unexpected 'stray' in ctprof_compare flags", "test.d:1:34"},
  };
  for (const Refused& r : refused) {
    CheckResult result = compile_text(std::string("BEGIN { ") + r.statement + "; }", "test.d", destructive());
    CAPTURE(result.error);
    CHECK_FALSE(result.program);
    CHECK(result.error.find(r.message) != std::string::npos);
    CHECK(result.error.find(std::string("--> ") + r.at + "\n") != std::string::npos);
  }
  // Flags computed at run time are checked when the action runs.
  CHECK(compile_text("BEGIN { ctprof_compare(\"a\", \"b\", strjoin(\"--bo\", \"gus\")); }").program);
}

TEST_CASE("aggregating functions' parameters follow DTrace's rules") {
  const std::pair<const char*, const char*> refused[] = {
      {"@ = lquantize(1, 0, 10, 0)", "[D_LQUANT_STEPTYPE] line 1: lquantize() step must be a positive integer constant"},
      {"@ = lquantize(1, 0, 10, arg0)", "[D_LQUANT_STEPTYPE] line 1: lquantize() argument #4 must be an integer constant"},
      {"@ = lquantize(1, arg0, 10)", "[D_LQUANT_BASETYPE] line 1: lquantize() argument #2 must be an integer constant"},
      {"@ = lquantize(1, 0, \"a\")", "[D_PROTO_ARG] line 1: lquantize() argument #3 must be an integer, not string"},
      {"@ = lquantize(1, 0, 10, 70000)", "[D_LQUANT_STEPVAL] line 1: lquantize() step must be at most 65535"},
      {"@ = lquantize(1, 0, 10, 20)", "[D_LQUANT_STEPLARGE] line 1: lquantize() step is larger than limit - base"},
      {"@ = lquantize(1, 0, 0)", "[D_LQUANT_STEPLARGE] line 1: lquantize() step is larger than limit - base"},
      {"@ = lquantize(1, 0, 1000000, 1)", "[D_LQUANT_STEPSMALL] line 1: lquantize() has too many levels"},
      {"@ = lquantize(1, 5000000000, 0)", "[D_LQUANT_BASEVAL] line 1: lquantize() base must fit in 32 bits"},
      {"@ = lquantize(1, 0, 5000000000)", "[D_LQUANT_LIMVAL] line 1: lquantize() limit must fit in 32 bits"},
      {"@ = llquantize(1, 1, 0, 6, 20)", "[D_LLQUANT_FACTORSMALL] line 1: llquantize() factor must be two or more"},
      {"@ = llquantize(1, 70000, 0, 6, 20)", "[D_LLQUANT_FACTORVAL] line 1: llquantize() factor must be between 0 and 65535"},
      {"@ = llquantize(1, 10, -1, 6, 20)", "[D_LLQUANT_LOWVAL] line 1: llquantize() low magnitude must be between 0 and 65535"},
      {"@ = llquantize(1, 10, 0, 70000, 20)", "[D_LLQUANT_HIGHVAL] line 1: llquantize() high magnitude must be between"},
      {"@ = llquantize(1, 10, 0, 6, 70000)", "[D_LLQUANT_NSTEPVAL] line 1: llquantize() number of steps must be between"},
      {"@ = llquantize(1, arg0, 0, 6, 20)", "[D_LLQUANT_FACTORTYPE] line 1: llquantize() argument #2 must be an integer constant"},
      {"@ = llquantize(1, 10, arg0, 6, 20)", "[D_LLQUANT_LOWTYPE] line 1: llquantize() argument #3"},
      {"@ = llquantize(1, 10, 0, arg0, 20)", "[D_LLQUANT_HIGHTYPE] line 1: llquantize() argument #4"},
      {"@ = llquantize(1, 10, 0, 6, arg0)", "[D_LLQUANT_NSTEPTYPE] line 1: llquantize() argument #5"},
      {"@ = llquantize(1, 10, 3, 2, 10)", "[D_LLQUANT_MAGRANGE] line 1: llquantize() high magnitude must be greater"},
      {"@ = llquantize(1, 10, 2, 2, 10)", "[D_LLQUANT_MAGRANGE] line 1: llquantize() high magnitude must be greater"},
      {"@ = llquantize(1, 10, 0, 18, 10)", "[D_LLQUANT_MAGTOOBIG] line 1: llquantize() factor raised to the high magnitude"},
      {"@ = llquantize(1, 10, 0, 6, 5)", "[D_LLQUANT_FACTORNSTEPS] line 1: llquantize() steps per magnitude must be at least"},
      {"@ = llquantize(1, 10, 0, 6, 15)", "[D_LLQUANT_FACTOREVEN] line 1: llquantize() steps per magnitude must be a multiple"},
      {"@ = llquantize(1, 10, 0, 6, 30)", "[D_LLQUANT_FACTOREVEN] line 1: llquantize() steps per magnitude must be a multiple"},
      {"@ = lquantize(1, 0, 10); @ = lquantize(2, 1, 10)", "[D_LQUANT_MATCHBASE] line 1: @: lquantize() argument #2 differs"},
      {"@ = lquantize(1, 0, 10); @ = lquantize(2, 0, 20)", "[D_LQUANT_MATCHLIM] line 1: @: lquantize() argument #3 differs"},
      {"@ = lquantize(1, 0, 10); @ = lquantize(2, 0, 10, 2)", "[D_LQUANT_MATCHSTEP] line 1: @: lquantize() argument #4 differs"},
      {"@ = llquantize(1, 10, 0, 6, 20); @ = llquantize(1, 5, 0, 6, 25)", "[D_LLQUANT_FACTORMATCH] line 1:"},
      {"@ = llquantize(1, 10, 0, 6, 20); @ = llquantize(1, 10, 1, 6, 20)", "[D_LLQUANT_LOWMATCH] line 1:"},
      {"@ = llquantize(1, 10, 0, 6, 20); @ = llquantize(1, 10, 0, 7, 20)", "[D_LLQUANT_HIGHMATCH] line 1:"},
      {"@ = llquantize(1, 10, 0, 6, 20); @ = llquantize(1, 10, 0, 6, 10)", "[D_LLQUANT_NSTEPMATCH] line 1:"},
      {"@ = quantize(1, \"a\")", "[D_PROTO_ARG] line 1: the increment of quantize() must be an integer"},
  };
  FrontendOptions tagged;
  dsched::abi::OptionValue on;
  on.number = 1;
  tagged.cli_options.set("errtags", on);
  for (auto [statement, message] : refused) {
    CheckResult result = compile_text(std::string("BEGIN { ") + statement + "; }", "test.d", tagged);
    CAPTURE(statement);
    CHECK_FALSE(result.program);
    CHECK(result.error.find(message) != std::string::npos);
  }
  // Steps may equal the factor; they may be any multiple of it that divides a power of it.
  CHECK(compile_text("BEGIN { @ = llquantize(1, 10, 2, 3, 10); @b = llquantize(1, 2, 0, 6, 8); }").program);
}

}  // TEST_SUITE
