// The syscall provider against processes the test forks inside a traced window: exact counts of
// entries and returns, return values and errno, arguments read with copyinstr(), probefunc, and
// the listing.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ctime>
#include <functional>
#include <sstream>

#include "aggregation_text.h"
#include "traced_window.h"

using namespace dsched::test;

TEST_CASE("N reads on a pipe: N entries and N returns for the reader's pid, with the bytes read") {
  constexpr int kReads = 200;
  TracedWindow window({"-qn",
                       "syscall::read:entry /execname == \"dsched-reader\"/ { @entries[pid] = count(); }"
                       " syscall::read:return /execname == \"dsched-reader\"/ { @returns[pid] = count();"
                       " @bytes[pid] = sum(arg0); @same[pid] = sum(arg0 == arg1); }"
                       " END { printa(\"entries %d %@d\\n\", @entries); printa(\"returns %d %@d\\n\", @returns);"
                       " printa(\"bytes %d %@d\\n\", @bytes); printa(\"same %d %@d\\n\", @same); }"});
  REQUIRE(window.is_open());
  pid_t reader = run_named_child("dsched-reader", [] {
    int pipe_fds[2];
    child_must(pipe(pipe_fds) == 0);
    char bytes[2 * kReads] = {};
    child_must(write(pipe_fds[1], bytes, sizeof bytes) == sizeof bytes);
    for (int i = 0; i < kReads; ++i) child_must(read(pipe_fds[0], bytes, 2) == 2);
  });
  RunResult run = window.close();
  INFO(run.out << run.err);
  REQUIRE(run.status == 0);
  using Rows = std::vector<std::vector<std::string>>;
  const Rows expected_count{{std::to_string(reader), std::to_string(kReads)}};
  CHECK(rows_tagged(run.out, "entries") == expected_count);
  CHECK(rows_tagged(run.out, "returns") == expected_count);
  CHECK(rows_tagged(run.out, "same") == expected_count);
  CHECK(rows_tagged(run.out, "bytes") == Rows{{std::to_string(reader), std::to_string(2 * kReads)}});
  CHECK(leftover_programs().empty());
}

TEST_CASE("openat: the path through copyinstr(arg1), -1 and errno 2 for a missing file, errno 0 on success and at entry") {
  TracedWindow window({"-qn",
                       "syscall::openat:entry /execname == \"dsched-opener\"/ { printf(\"path %s %d\\n\", copyinstr(arg1), errno); }"
                       " syscall::openat:return /execname == \"dsched-opener\"/ { printf(\"return %d %d\\n\", arg0, errno); }"});
  REQUIRE(window.is_open());
  run_named_child("dsched-opener", [] {
    child_must(open("/nonexistent-dsched-dir/missing-file", O_RDONLY) == -1);
    child_must(open("/dev/null", O_RDONLY) >= 0);
  });
  RunResult run = window.close();
  INFO(run.out << run.err);
  REQUIRE(run.status == 0);
  using Rows = std::vector<std::vector<std::string>>;
  // errno is 0 where no call returns, also right after a failed call.
  CHECK(rows_tagged(run.out, "path") == Rows{{"/nonexistent-dsched-dir/missing-file", "0"}, {"/dev/null", "0"}});
  Rows returns = rows_tagged(run.out, "return");
  REQUIRE(returns.size() == 2);
  CHECK(returns[0] == std::vector<std::string>{"-1", "2"});
  CHECK(std::stol(returns[1].at(0)) >= 0);  // a descriptor
  CHECK(returns[1].at(1) == "0");
  CHECK(leftover_programs().empty());
}

TEST_CASE("vtimestamp advances while a thread runs between two calls, and no faster than timestamp") {
  // The kernel adds to a thread's run time only at ticks and switches: 300 us of spinning fall
  // between two ticks most of the time, and vtimestamp must still count them. The workload is a
  // new process: its run time reads 0 until its first tick.
  constexpr int kCalls = 40;
  TempScript script(
      "self uint64_t v, t;\n"
      "syscall::getppid:entry /execname == \"dsched-vspin\" && self->t/ {"
      " printf(\"delta %d %d\\n\", vtimestamp - self->v, timestamp - self->t); }\n"
      "syscall::getppid:entry /execname == \"dsched-vspin\"/ { self->v = vtimestamp; self->t = timestamp; }\n");
  TracedWindow window({"-qs", script.path()});
  REQUIRE(window.is_open());
  run_named_child("dsched-vspin", [] {
    for (int i = 0; i < kCalls; ++i) {
      syscall(SYS_getppid);
      timespec start{}, now{};
      clock_gettime(CLOCK_MONOTONIC, &start);
      do clock_gettime(CLOCK_MONOTONIC, &now);
      while ((now.tv_sec - start.tv_sec) * 1000000000L + (now.tv_nsec - start.tv_nsec) < 300000);
    }
  });
  RunResult run = window.close();
  INFO(run.out << run.err);
  REQUIRE(run.status == 0);
  auto rows = rows_tagged(run.out, "delta");
  REQUIRE(rows.size() == kCalls - 1);
  long advanced = 0, on_cpu = 0, elapsed = 0;
  for (const auto& row : rows) {
    long v = std::stol(row.at(0)), t = std::stol(row.at(1));
    advanced += v > 0;
    on_cpu += v;
    elapsed += t;
  }
  // Where the kernel's sum catches up with what vtimestamp had counted (it leaves out stolen and
  // interrupt time) an interval may read 0, more of them on a loaded machine; still most advance,
  // where the kernel's sum alone would advance at a tick only, once in 13 intervals at HZ=250.
  CHECK(advanced * 2 >= kCalls - 1);
  // A busy thread runs most of the time even on a busy machine, and never longer than it took:
  // a new sum may bring up to a tick the last anchor had not counted (10 ms at HZ=100).
  CHECK(on_cpu * 4 >= elapsed);
  CHECK(on_cpu <= elapsed + 10000000);
  CHECK(leftover_programs().empty());
}

TEST_CASE("syscall:::entry fires for every call with probefunc its name; entry arguments are the call's") {
  constexpr int kCalls = 100;
  TracedWindow window({"-qn",
                       "syscall:::entry /execname == \"dsched-caller\"/ { @[probefunc] = count(); }"
                       " syscall::kill:entry /execname == \"dsched-caller\"/ { printf(\"kill %d %d\\n\", arg0, arg1); }"
                       " END { printa(\"call %s %@d\\n\", @); }"});
  REQUIRE(window.is_open());
  run_named_child("dsched-caller", [] {
    for (int i = 0; i < kCalls; ++i) syscall(SYS_getpid);
    for (int i = 0; i < kCalls / 2; ++i) syscall(SYS_getppid);
    child_must(kill(getpid(), 0) == 0);
  });
  RunResult run = window.close();
  INFO(run.out << run.err);
  REQUIRE(run.status == 0);
  std::map<std::string, std::string> calls;
  for (const auto& row : rows_tagged(run.out, "call")) calls[row.at(0)] = row.at(1);
  CHECK(calls["getpid"] == std::to_string(kCalls + 1));  // kill(getpid(), 0) asks once more
  CHECK(calls["getppid"] == std::to_string(kCalls / 2));
  CHECK(calls["kill"] == "1");
  CHECK(calls.count("exit_group") == 1);
  auto kills = rows_tagged(run.out, "kill");
  REQUIRE(kills.size() == 1);
  CHECK(std::stol(kills[0].at(0)) > 1);
  CHECK(kills[0].at(1) == "0");
  CHECK(leftover_programs().empty());
}

// The calls of one clause fire through one copy of it, which must still tell the calls apart.
TEST_CASE("a clause on several calls: each firing has its own call's name, id and epid, in records and faults") {
  TracedWindow window({"-n",
                       "syscall::getppid:entry,syscall::getpid:entry /execname == \"dsched-alike\"/"
                       " { printf(\"fired %s %s %d %d\", probefunc, probename, id, epid); }"
                       " syscall::getppid:entry,syscall::getpid:entry /execname == \"dsched-alike\"/ { trace(*(int *)8); }"
                       " ERROR { printf(\"error %d\", arg1); }"});
  REQUIRE(window.is_open());
  run_named_child("dsched-alike", [] {
    syscall(SYS_getpid);
    syscall(SYS_getppid);
  });
  RunResult run = window.close();
  INFO(run.out << run.err);
  REQUIRE(run.status == 0);
  // The id `dsched -l` lists for the call's entry.
  auto id = [](const std::string& call) {
    std::istringstream lines(run_dsched({"-l", "-n", "syscall::" + call + ":entry"}).out);
    std::string heading, listed;
    std::getline(lines, heading);
    lines >> listed;
    return listed;
  };
  // Lines led by the default CPU, ID and FUNCTION:NAME columns, then `word`: the ID, the
  // FUNCTION:NAME and what follows the word.
  auto lines_of = [&](const std::string& word) {
    std::vector<std::vector<std::string>> found;
    for (auto& fields : parse_rows(run.out)) {
      if (fields.size() < 4 || fields[3] != word) continue;
      fields.erase(fields.begin() + 3);
      fields.erase(fields.begin());
      found.push_back(fields);
    }
    return found;
  };
  using Rows = std::vector<std::vector<std::string>>;
  // Enabled probes count clause by clause, probe by probe in id order: getpid 1, getppid 2, then
  // 3 and 4 in the second clause, ERROR 5.
  CHECK(lines_of("fired") == Rows{{id("getpid"), "getpid:entry", "getpid", "entry", id("getpid"), "1"},
                                  {id("getppid"), "getppid:entry", "getppid", "entry", id("getppid"), "2"}});
  Rows errors = lines_of("error");  // ERROR's arg1: the enabled probe that faulted
  REQUIRE(errors.size() == 2);
  CHECK(errors[0] == Rows::value_type{errors[0].at(0), ":ERROR", "3"});
  CHECK(errors[1] == Rows::value_type{errors[0].at(0), ":ERROR", "4"});
  CHECK(run.err.find("enabled probe ID 3 (ID " + id("getpid") + ": syscall:vmlinux:getpid:entry)") != std::string::npos);
  CHECK(run.err.find("enabled probe ID 4 (ID " + id("getppid") + ": syscall:vmlinux:getppid:entry)") != std::string::npos);
  CHECK(leftover_programs().empty());
}

TEST_CASE("-l -P syscall lists an entry and a return for each call") {
  RunResult run = run_dsched({"-l", "-P", "syscall"});
  REQUIRE(run.status == 0);
  size_t entries = 0, returns = 0;
  bool read_listed = false;
  for (const auto& row : parse_rows(run.out)) {
    if (row.size() != 5 || row[1] != "syscall") continue;
    entries += row[4] == "entry";
    returns += row[4] == "return";
    read_listed |= row[2] == "vmlinux" && row[3] == "read" && row[4] == "entry";
  }
  CHECK(read_listed);
  CHECK(entries > 300);
  CHECK(entries == returns);
}

TEST_CASE("fds[] names a descriptor's file, path, file system, mount, offset and flags; a closed one reads <none>") {
  TracedWindow window(
      {"-qn",
       "syscall::write:entry /execname == \"dsched-fds\"/ { printf(\"file %d|%s|%s|%s|%s|%s|%d|%d|%d\\n\", arg0,"
       " fds[arg0].fi_name, fds[arg0].fi_pathname, fds[arg0].fi_dirname, fds[arg0].fi_fs, fds[arg0].fi_mount,"
       " fds[arg0].fi_offset, fds[arg0].fi_oflags & O_ACCMODE, (fds[arg0].fi_oflags & O_APPEND) == O_APPEND); }"
       " syscall::write:entry /execname == \"dsched-fds\" && arg0 == 40/ { printf(\"dirs %s|%s\\n\", cwd, root); }"});
  REQUIRE(window.is_open());
  // A directory two mounts deep (tmpfs on /dev/shm, devtmpfs on /dev): the path crosses both.
  const char* dir = "/dev/shm/dsched-fds-dir";
  const std::string path = std::string(dir) + "/file";
  mkdir(dir, 0700);
  run_named_child("dsched-fds", [&] {
    child_must(chdir(dir) == 0);
    int file = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0600);
    child_must(file >= 0 && dup2(file, 40) == 40);
    child_must(write(40, "12345", 5) == 5 && write(40, "6", 1) == 1);
    child_must(write(41, "x", 1) == -1);  // not open
    int pipe_fds[2];
    child_must(pipe(pipe_fds) == 0 && dup2(pipe_fds[1], 42) == 42 && write(42, "p", 1) == 1);
  });
  unlink(path.c_str());
  rmdir(dir);
  RunResult run = window.close();
  INFO(run.out << run.err);
  REQUIRE(run.status == 0);
  std::vector<std::string> lines;
  for (size_t at = 0; (at = run.out.find("file ", at)) != std::string::npos; ++at)
    lines.push_back(run.out.substr(at, run.out.find('\n', at) - at));
  const std::string file = "file 40|file|" + path + "|" + dir + "|tmpfs|/dev/shm|";
  REQUIRE(lines.size() == 4);
  CHECK(lines[0] == file + "0|1|1");
  CHECK(lines[1] == file + "5|1|1");
  CHECK(lines[2] == "file 41|<none>|<none>|<none>|<none>|<none>|-1|0|0");
  // A pipe is named as the kernel names it: pipe:[inode], on the root of no mounted tree.
  CHECK(lines[3].starts_with("file 42||pipe:["));
  CHECK(lines[3].ends_with("]|.|pipefs|/|0|1|0"));
  using Rows = std::vector<std::vector<std::string>>;
  CHECK(rows_tagged(run.out, "dirs") == Rows{{std::string(dir) + "|/"}, {std::string(dir) + "|/"}});
  CHECK(leftover_programs().empty());
}

TEST_CASE("a clause of many statements that each copy a path in fits in scratch: temporaries are reused") {
  // Without reuse the 40 copies and keys would need more scratch than a per-CPU map value holds.
  constexpr int kStatements = 40;
  std::string script = "syscall::openat:entry /execname == \"dsched-paths\"/ {";
  for (int i = 0; i < kStatements; ++i)
    script += " @p" + std::to_string(i) + "[copyinstr(arg1), strlen(copyinstr(arg1))] = count();";
  script += " }";
  TracedWindow window({"-qn", script});
  REQUIRE(window.is_open());
  run_named_child("dsched-paths", [] { child_must(open("/dev/null", O_RDONLY) >= 0); });
  RunResult run = window.close();
  INFO(run.out << run.err);
  REQUIRE(run.status == 0);
  size_t rows = 0;
  for (size_t at = 0; (at = run.out.find("/dev/null", at)) != std::string::npos; ++at) ++rows;
  CHECK(rows == kStatements);
  CHECK(leftover_programs().empty());
}
