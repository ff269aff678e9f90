// Inputs built to exhaust memory or time are refused early, with one message naming the input
// and the reason, within a memory limit the test sets (RLIMIT_AS), never by an abort.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "snapshot_bomb.h"
#include "test_files_util.h"

namespace {

struct Run {
  int status = -1;  // exit status; -1 when killed by a signal
  std::string err;
};

// Runs dsched with `args` under an address-space limit of `limit` bytes (and an open-file limit
// of `files`, 0: unchanged); stdout is discarded.
Run run_limited(const std::vector<std::string>& args, rlim_t limit, rlim_t files = 0) {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const rlimit as{limit, limit};
    setrlimit(RLIMIT_AS, &as);
    const rlimit nofile{files, files};
    if (files) setrlimit(RLIMIT_NOFILE, &nofile);
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(fds[1], 2);
    close(fds[0]);
    std::vector<char*> argv{const_cast<char*>(DSCHED_BINARY)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(DSCHED_BINARY, argv.data());
    _exit(127);
  }
  close(fds[1]);
  Run run;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) run.err.append(buf, std::size_t(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

constexpr rlim_t kAddressSpace = rlim_t{512} << 20;

}  // namespace

TEST_CASE("a snapshot bomb is refused within 512 MiB of address space, naming the file") {
  ctprof_test::TempDir dir;
  // About 21 KB of zstd holding 240 MiB of JSON: one small thread record repeated.
  const std::string bomb = dir.file("bomb.ctprof", ctprof_test::snapshot_bomb(std::size_t{240} << 20));
  CHECK(std::filesystem::file_size(bomb) < 64 << 10);
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"ctprof", "show", bomb}, {"ctprof", "compare", bomb, bomb}}) {
    const Run run = run_limited(args, kAddressSpace);
    CHECK(run.status == 1);
    CHECK(run.err.starts_with("dsched ctprof: " + bomb +
                              ": not a plausible ctprof snapshot: 16 MiB of text from "));
    CHECK(run.err.ends_with(" KiB of zstd data (more than 100 times)\n"));
  }
}

// A script of `count` one-line clauses, `clause(i)` each.
template <typename Clause>
std::string script_file(const ctprof_test::TempDir& dir, std::size_t count, Clause clause) {
  std::string text;
  for (std::size_t i = 0; i < count; ++i) text += clause(i) + "\n";
  return dir.file("script.d", text);
}

TEST_CASE("a script that could never load is refused at the clause that crosses the limit") {
  ctprof_test::TempDir dir;
  // One probe's clauses share one BPF program.
  const std::string begins =
      script_file(dir, 20000, [](std::size_t i) { return "BEGIN { @[" + std::to_string(i) + "] = count(); }"; });
  Run run = run_limited({"-e", "-s", begins}, kAddressSpace);
  CHECK(run.status == 1);
  CHECK(run.err.starts_with("dsched: failed to compile script " + begins +
                            ": line 8193: more than 8192 clauses for dtrace:::BEGIN: they share one "
                            "BPF program, where a branch reaches at most 32767 instructions\n"));
  // Every probe needs at least one open file.
  const std::string ticks = script_file(
      dir, 1000, [](std::size_t i) { return "tick-" + std::to_string(1000 + i) + "ms { @ = count(); }"; });
  run = run_limited({"-e", "-s", ticks}, kAddressSpace, 64);
  CHECK(run.status == 1);
  CHECK(run.err.starts_with("dsched: failed to compile script " + ticks +
                            ": line 65: more than 64 probes enabled; no more can be attached (each "
                            "needs an open file and the limit is 64; raise it with ulimit -n)\n"));
}
