// Bad snapshot files and command-line errors: one clear message naming the file, right exit code.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "ctprof.h"
#include "options.h"
#include "snapshot_bomb.h"
#include "snapshot_builder.h"
#include "snapshot_io.h"
#include "test_files_util.h"

using namespace dsched::ctprof;
using ctprof_test::repeating_frame;
using ctprof_test::slurp;
using ctprof_test::snapshot_bomb;
using ctprof_test::valid_json;
using ctprof_test::TempDir;
namespace fs = std::filesystem;

namespace {

std::string read_error(const std::string& path, std::size_t cap = kMaxDecompressedBytes,
                       std::size_t max_ratio = kMaxCompressionRatio) {
  try {
    read_snapshot_file(path, cap, max_ratio);
  } catch (const SnapshotError& e) {
    return e.what();
  }
  return "(read fine)";
}

struct CliResult {
  int code;
  std::string out, err;
};

CliResult cli(std::vector<std::string> args) {
  std::ostringstream out, err;
  const int code = run_cli(args, out, err);
  return {code, out.str(), err.str()};
}

// Reads `path` in a child process; returns the error and how far the child's resident memory
// grew while reading (bytes).
std::pair<std::string, std::size_t> read_in_child(const std::string& path, std::size_t cap,
                                                  std::size_t max_ratio) {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    close(fds[0]);
    auto kib = [](const char* key) {
      std::ifstream status("/proc/self/status");
      std::string line;
      while (std::getline(status, line))
        if (line.rfind(key, 0) == 0) return std::stoull(line.substr(line.find(':') + 1)) * 1024;
      return 0ull;
    };
    const auto before = kib("VmRSS:");
    const std::string error = read_error(path, cap, max_ratio);
    const std::string report = std::to_string(kib("VmHWM:") - before) + " " + error;
    if (write(fds[1], report.data(), report.size()) < 0) _exit(1);
    _exit(0);
  }
  close(fds[1]);
  std::string report;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;)
    report.append(buf, static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  const auto space = report.find(' ');
  return {report.substr(space + 1), std::stoull(report.substr(0, space))};
}

}  // namespace

TEST_CASE("ctprof bad snapshot files give one message naming the file and the reason") {
  TempDir dir;
  const std::string good = dir.file("good.zst", compress(valid_json()));
  CHECK(read_error(good) == "(read fine)");

  const std::string missing = (dir.path / "missing.zst").string();
  CHECK(read_error(missing) == missing + ": cannot open: No such file or directory");
  CHECK(read_error(dir.path.string()) == dir.path.string() + ": not a regular file");
  const std::string empty = dir.file("empty.zst", "");
  CHECK(read_error(empty) == empty + ": empty file");
  const std::string text = dir.file("text.zst", "{\"format\": 1}");
  CHECK(read_error(text) == text + ": not a zstd-compressed snapshot (bad magic number)");

  const std::string packed = compress(valid_json());
  const std::string truncated = dir.file("truncated.zst", packed.substr(0, packed.size() / 2));
  CHECK(read_error(truncated) == truncated + ": truncated zstd stream");
  const std::string corrupt =
      dir.file("corrupt.zst", packed.substr(0, 4) + std::string(64, '\x5a'));
  CHECK(read_error(corrupt).find(corrupt + ": corrupt zstd data (") == 0);
  const std::string trailing = dir.file("trailing.zst", packed + "junk-after-the-frame");
  CHECK(read_error(trailing).find(trailing + ": corrupt zstd data (") == 0);

  const std::string not_json = dir.file("notjson.zst", compress("threads: [1, 2"));
  CHECK(read_error(not_json).find(not_json + ": not valid JSON: ") == 0);

  auto schema = [&](const std::string& name, const std::string& json) {
    return read_error(dir.file(name, compress(json)));
  };
  CHECK(schema("array.zst", "[1,2]").find(": not a ctprof snapshot: top level is not an object") !=
        std::string::npos);
  CHECK(
      schema("noformat.zst", "{\"threads\": []}")
          .find(
              "noformat.zst: not a ctprof snapshot: it starts with neither \"format\" (dsched) nor "
              "\"captured_at_unix_ns\" (ktstr)") != std::string::npos);
  CHECK(schema("wrongformat.zst", "{\"format\": \"other-tool\"}")
            .find("missing or wrong \"format\"") != std::string::npos);
  std::string v9 = valid_json();
  v9.replace(v9.find("\"version\":2"), 11, "\"version\":9");
  CHECK(schema("v9.zst", v9) ==
        (dir.path / "v9.zst").string() +
            ": unsupported snapshot version 9 (this dsched reads versions 1 and "
            "2); re-capture it or use a newer dsched");
  std::string short_values = valid_json();
  short_values.replace(short_values.find("\"values\":[5,"), 12, "\"values\":[");
  CHECK(schema("short.zst", short_values).find("thread 7 has") != std::string::npos);
  std::string wrong_type = valid_json();
  wrong_type.replace(wrong_type.find("\"values\":[5,"), 12, "\"values\":[\"x\",");
  const std::string wrong = schema("type.zst", wrong_type);
  CHECK(
      wrong.find("type.zst: not a ctprof snapshot: thread 7: type must be number, but is string") !=
      std::string::npos);
  std::string no_host = valid_json();
  no_host.replace(no_host.find("\"host\""), 6, "\"hozt\"");
  CHECK(schema("nohost.zst", no_host).find("nohost.zst: not a ctprof snapshot: missing \"host\"") !=
        std::string::npos);
  std::string no_metrics = valid_json();
  no_metrics.replace(no_metrics.find("\"metrics\""), 9, "\"metricz\"");
  CHECK(schema("nometrics.zst", no_metrics).find("\"threads\" come before \"metrics\"") !=
        std::string::npos);
}

TEST_CASE("ctprof decompression bombs are refused without the memory they ask for") {
  TempDir dir;
  constexpr std::size_t kExpanded = std::size_t{600} << 20;  // well past the 256 MiB cap
  // Zeros are not JSON: refused at the first byte.
  const std::string zeros =
      dir.file("zeros.zst", repeating_frame("", std::string(4096, '\0'), kExpanded));
  CHECK(read_error(zeros).find(zeros + ": not valid JSON: ") == 0);

  // Valid records, each costing memory for a few bytes of text: refused once they would take
  // more than about twice the text read.
  const std::string records = dir.file("records.zst", snapshot_bomb(kExpanded));
  CHECK(fs::file_size(records) < 1 << 20);
  // Such a file compresses thousands of times: refused once its text passes the slack.
  const auto [ratio_error, ratio_growth] =
      read_in_child(records, kMaxDecompressedBytes, kMaxCompressionRatio);
  CHECK(ratio_error.find(records + ": not a plausible ctprof snapshot: 16 MiB of text from ") == 0);
  CHECK(ratio_error.find(" KiB of zstd data (more than 100 times)") != std::string::npos);
  CHECK(ratio_growth < std::size_t{96} << 20);
  // Without the ratio check, the records' memory stops it.
  const auto [records_error, records_growth] = read_in_child(records, kMaxDecompressedBytes, 0);
  CHECK(records_error.find(records +
                           ": not a plausible ctprof snapshot: its records would take ") == 0);
  CHECK(records_growth < std::size_t{256} << 20);

  // Records that are mostly text (a ktstr snapshot with long unknown fields): stopped by the cap
  // (without the ratio check).
  const std::string padded = dir.file(
      "padded.zst",
      repeating_frame("{\"captured_at_unix_ns\":1,\"threads\":[",
                      "{\"tid\":1,\"tgid\":1,\"note\":\"" + std::string(2000, 'x') + "\"},",
                      kExpanded));
  CHECK(fs::file_size(padded) < 1 << 20);
  const auto [padded_error, padded_growth] = read_in_child(padded, kMaxDecompressedBytes, 0);
  CHECK(padded_error == padded + ": decompressed size exceeds the 256 MiB cap");
  CHECK(padded_growth < std::size_t{256} << 20);
  CHECK(read_error(padded, 1 << 20) == padded + ": decompressed size exceeds the 1 MiB cap");

  const auto r = cli({"show", padded});
  CHECK(r.code == 1);
  CHECK(r.err.find("dsched ctprof: " + padded + ": not a plausible ctprof snapshot: 16 MiB") == 0);
}

TEST_CASE("ctprof command line: exit codes and messages") {
  TempDir dir;
  const std::string good = dir.file("good.zst", compress(valid_json()));
  const std::string bad = dir.file("bad.zst", "plain text");

  auto r = cli({});
  CHECK(r.code == 2);
  CHECK(r.err.find("usage: dsched ctprof capture -o FILE") == 0);
  r = cli({"--help"});
  CHECK(r.code == 0);
  CHECK(r.out.find("usage:") == 0);
  r = cli({"frobnicate"});
  CHECK(r.code == 2);
  CHECK(r.err.find(
            "unknown ctprof command 'frobnicate'; valid: capture, compare, show, metric-list") !=
        std::string::npos);
  CHECK(cli({"compare", good}).code == 2);
  CHECK(cli({"compare", good, good, "--metrics", "nope"}).code == 2);
  CHECK(cli({"show"}).code == 2);
  CHECK(cli({"capture"}).code == 2);
  CHECK(cli({"capture", "-o"}).code == 2);
  CHECK(cli({"metric-list", "extra"}).code == 2);

  r = cli({"compare", good, bad});
  CHECK(r.code == 1);
  CHECK(r.err == "dsched ctprof: " + bad + ": not a zstd-compressed snapshot (bad magic number)\n");
  r = cli({"compare", good, good, "--metrics", "run_time_ns", "--group-by", "comm"});
  CHECK(r.code == 0);
  CHECK(r.out.find("## Primary metrics\ncomm ") == 0);
  CHECK(r.out.find("\napp         1  run_time_ns  5ns → 5ns    0ns  0.0%        -\n") !=
        std::string::npos);
  r = cli({"show", good, "--sections", "primary", "--metrics", "state"});
  CHECK(r.code == 0);
  CHECK(r.out ==
        "## Primary metrics\npcomm  threads  metric  value\napp          1  state       S\n");
  r = cli({"metric-list"});
  CHECK(r.code == 0);
  CHECK(r.out.find("run_time_ns") != std::string::npos);

  r = cli({"capture", "-o", (dir.path / "no-such-dir" / "x.zst").string(), "--proc-root",
           dir.path.string(), "--no-taskstats"});
  CHECK(r.code == 1);
  CHECK(r.err.find("no-such-dir/x.zst: cannot create") != std::string::npos);
}

TEST_CASE("ctprof script entry points return one-line errors") {
  TempDir dir;
  const std::string good = dir.file("good.zst", compress(valid_json()));
  std::ostringstream out;
  CHECK(compare_files(good, good, "--sections taskstats-delay", out) == "");
  CHECK(out.str().find("## Taskstats delay") == 0);
  CHECK(compare_files(good, good, "--sort-by bogus", out).find("unknown metric 'bogus'") == 0);
  CHECK(compare_files(good, good, "stray", out) == "unexpected 'stray' in ctprof_compare flags");
  const std::string missing = (dir.path / "nope.zst").string();
  CHECK(compare_files(good, missing, "", out) ==
        missing + ": cannot open: No such file or directory");
  std::ostringstream diag;
  const std::string err = write_snapshot((dir.path / "missing-dir" / "s.zst").string(), diag);
  CHECK(err.find("missing-dir/s.zst: cannot create") != std::string::npos);
  CHECK(err.find('\n') == std::string::npos);
}

TEST_CASE("ctprof writes snapshots atomically and never through a symlink or over other files") {
  TempDir dir;
  Snapshot s = ctprof_test::empty_snapshot();
  ctprof_test::add_thread(s, 7, "app", "app", {{kRunTimeNs, 5}});
  const std::string path = (dir.path / "snap.ctprof.zst").string();
  auto write_error = [&](const std::string& target) {
    try {
      write_snapshot_file(s, target);
    } catch (const SnapshotError& e) {
      return std::string(e.what());
    }
    return std::string("(written)");
  };
  CHECK(write_error(path) == "(written)");
  CHECK(read_snapshot_file(path).threads.size() == 1);
  // An existing snapshot (dsched's or ktstr's) is replaced.
  s.threads.front().tid = 8;
  CHECK(write_error(path) == "(written)");
  CHECK(read_snapshot_file(path).threads.front().tid == 8);
  const std::string ktstr =
      dir.file("ktstr.ctprof.zst", compress("{\"captured_at_unix_ns\":1,\"threads\":[]}"));
  CHECK(write_error(ktstr) == "(written)");

  // Anything else is left alone, with a message naming it.
  const std::string notes = dir.file("notes.txt", "keep me\n");
  CHECK(write_error(notes) ==
        notes + ": exists and is not a ctprof snapshot; refusing to replace it");
  CHECK(slurp(notes) == "keep me\n");
  const std::string zstd_other = dir.file("other.zst", compress("{\"something\": \"else\"}"));
  CHECK(write_error(zstd_other) ==
        zstd_other + ": exists and is not a ctprof snapshot; refusing to replace it");
  const std::string link = (dir.path / "link.ctprof.zst").string();
  fs::create_symlink(notes, link);
  CHECK(write_error(link) == link + ": is a symbolic link; refusing to write through it");
  CHECK(slurp(notes) == "keep me\n");
  const std::string dangling = (dir.path / "dangling.ctprof.zst").string();
  fs::create_symlink(dir.path / "nowhere", dangling);
  CHECK(write_error(dangling) == dangling + ": is a symbolic link; refusing to write through it");
  CHECK_FALSE(fs::exists(dir.path / "nowhere"));
  fs::create_directory(dir.path / "sub");
  CHECK(write_error((dir.path / "sub").string()) ==
        (dir.path / "sub").string() + ": exists and is not a regular file; refusing to replace it");
  // No temporary file is left behind, whatever happened.
  for (const auto& e : fs::directory_iterator(dir.path))
    CHECK(e.path().filename().string().find(".tmp") == std::string::npos);

  // Reading a FIFO does not wait for a writer.
  const std::string fifo = (dir.path / "fifo.zst").string();
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(read_error(fifo) == fifo + ": not a regular file");
}

TEST_CASE("ctprof --help on every subcommand") {
  for (const char* command : {"capture", "compare", "show", "metric-list"}) {
    CAPTURE(command);
    const auto r = cli({command, "--help"});
    CHECK(r.code == 0);
    CHECK(r.err.empty());
    CHECK(r.out.find(std::string("usage: dsched ctprof ") + command) == 0);
    CHECK(cli({"help", command}).out == r.out);
    CHECK(cli({command, "-h"}).out == r.out);
  }
  const std::string capture = cli({"capture", "--help"}).out;
  for (const char* flag : {"--output", "--proc-root", "--cgroup-root", "--sys-root",
                           "--no-taskstats", "--no-jemalloc", "--jemalloc-pid"})
    CHECK(capture.find(flag) != std::string::npos);
  const std::string compare = cli({"compare", "--help"}).out;
  for (const char* flag :
       {"--group-by", "--cgroup-flatten", "--no-thread-normalize", "--no-cg-normalize",
        "--sections", "--metrics", "--sort-by", "--display-format", "--columns", "--limit"})
    CHECK(compare.find(flag) != std::string::npos);
  CHECK(cli({"show", "--help"}).out.find("--display-format") == std::string::npos);
  const auto unknown = cli({"help", "frobnicate"});
  CHECK(unknown.code == 2);
  CHECK(unknown.err.find("no help for 'frobnicate'") != std::string::npos);
}

TEST_CASE("ctprof D entry points take the command line's flags through the same parsers") {
  TempDir dir;
  const std::string a = dir.file("a.zst", compress(valid_json()));
  // compare_files and `ctprof compare` print the same table for the same flags...
  for (const std::string flags :
       {"", "--group-by pcomm --limit 0", "--sections derived --display-format full",
        "--group-by cgroup --columns group,metric,arrow"}) {
    CAPTURE(flags);
    std::ostringstream out;
    CHECK(compare_files(a, a, flags, out) == "");
    std::vector<std::string> args = {"compare", a, a};
    for (const auto& f : split_flags(flags)) args.push_back(f);
    CHECK(cli(args).out == out.str());
  }
  // ...and refuse bad ones with the same message.
  for (const std::string flags : {"--limit x", "--group-by pid", "--wrap", "--sort-by policy"}) {
    std::ostringstream out;
    std::vector<std::string> args = {"compare", a, a};
    for (const auto& f : split_flags(flags)) args.push_back(f);
    const auto r = cli(args);
    CHECK(r.err.find("dsched ctprof: " + compare_files(a, a, flags, out) + "\n") == 0);
  }
  // An unknown flag is named as unknown even where a value flag would need one next.
  std::ostringstream ignored;
  CHECK(compare_files(a, a, "--bogus", ignored).find("unknown flag --bogus; valid: --group-by") == 0);
  CHECK(compare_flags_error("--sort-by") == "--sort-by needs a value");
  CHECK(compare_flags_error("--limit 3 --metrics run_time_ns") == "");
  CHECK(snapshot_flags_error("--bogus").find("capture: unknown flag --bogus") == 0);
  CHECK(snapshot_flags_error("--proc-root") == "--proc-root needs a value");
  CHECK(snapshot_flags_error("--no-jemalloc --jemalloc-pid 1") == "");

  // write_snapshot takes the capture flags (all but -o: the path is its first argument).
  std::ostringstream diag;
  const std::string proc = (dir.path / "proc").string();
  fs::create_directories(dir.path / "proc");
  const std::string snap = (dir.path / "s.zst").string();
  CHECK(write_snapshot(snap, "--proc-root " + proc + " --no-taskstats --no-jemalloc", diag) == "");
  CHECK(read_snapshot_file(snap).threads.empty());
  CHECK(diag.str().find("ctprof parse: 0 tids walked") != std::string::npos);
  CHECK(write_snapshot(snap, "-o other.zst", diag)
            .find("capture: unknown flag -o; valid: --proc-root") == 0);
  CHECK(write_snapshot(snap, "--jemalloc-pid x", diag) ==
        "--jemalloc-pid needs a process id, got 'x'");
  CHECK(write_snapshot(snap, "--no-taskstats=1", diag) == "--no-taskstats takes no value");
}
