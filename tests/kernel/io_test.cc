// The io provider against direct reads of a file the test writes, at offsets whose sectors it
// learns from the file system (FIEMAP), and direct writes to a loop device it makes: each read
// or write is one request at a known sector, so io:::start and io:::done must show exactly those, as
// reads of the size asked, on that disk; the reader waits for them (wait-start, wait-done).
#include <doctest/doctest.h>

#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include "aggregation_text.h"
#include "traced_window.h"

using namespace dsched::test;

namespace {

constexpr int kReads = 8;
constexpr int kNaps = 20;
constexpr size_t kBytes = 4096;
constexpr off_t kStride = 1 << 20;

// The whole disk that holds `path`'s file system (its name under /dev), and where the file
// system starts on it in sectors (a partition's start; 0 for a whole disk).
struct Disk {
  std::string name;
  uint64_t first_sector = 0;
};
Disk disk_of(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return {};
  std::string sys = "/sys/dev/block/" + std::to_string(major(st.st_dev)) + ":" + std::to_string(minor(st.st_dev));
  char resolved[PATH_MAX];
  if (!realpath(sys.c_str(), resolved)) return {};
  std::string dir = resolved;
  Disk disk;
  // A partition's directory sits inside its disk's: .../block/vda/vda1.
  if (std::ifstream(dir + "/start") >> disk.first_sector) dir = dir.substr(0, dir.rfind('/'));
  disk.name = dir.substr(dir.rfind('/') + 1);
  return disk;
}

// Where byte `offset` of the open file lies on its file system's device, in bytes (FIEMAP).
uint64_t physical_offset(int fd, off_t offset) {
  alignas(fiemap) char buffer[sizeof(fiemap) + sizeof(fiemap_extent)] = {};
  auto* map = reinterpret_cast<fiemap*>(buffer);
  map->fm_start = uint64_t(offset);
  map->fm_length = kBytes;
  map->fm_flags = FIEMAP_FLAG_SYNC;
  map->fm_extent_count = 1;
  if (ioctl(fd, FS_IOC_FIEMAP, map) != 0 || map->fm_mapped_extents != 1) return 0;
  const fiemap_extent& extent = map->fm_extents[0];
  return extent.fe_physical + (uint64_t(offset) - extent.fe_logical);
}

// `script` over dd writing `blocks` blocks of `block_size` to a new file under /var/tmp and
// fsync()ing it; the file is removed after.
RunResult trace_fsynced_write(const std::string& script, const std::string& block_size, int blocks) {
  const std::string file = "/var/tmp/dsched-io-" + std::to_string(getpid());
  RunResult run = run_dsched({"-qn", script, "-c", "dd if=/dev/zero of=" + file + " bs=" + block_size +
                                                      " count=" + std::to_string(blocks) + " conv=fsync status=none"});
  unlink(file.c_str());
  INFO(run.out << run.err);
  REQUIRE(run.status == 0);
  return run;
}

// The "start" rows, by their first column (a sector). Requests are issued in order, but each CPU's
// records are printed together, as DTrace's per-CPU buffers are, so a thread that moved between
// CPUs can see its rows in another order.
std::vector<std::vector<std::string>> start_rows_by_sector(const std::string& out) {
  auto rows = rows_tagged(out, "start");
  std::ranges::sort(rows, {}, [](const auto& row) { return std::stoull(row.at(0)); });
  return rows;
}

}  // namespace

TEST_CASE("io:::start and io:::done: direct reads of a file at sectors known from FIEMAP") {
  // A file on a disk-backed file system (not /tmp, which may be in memory), written and synced.
  std::string path = std::string(DSCHED_SOURCE_DIR) + "/.io-test-file";
  Disk disk = disk_of(DSCHED_SOURCE_DIR);
  REQUIRE(!disk.name.empty());
  {
    std::ofstream file(path, std::ios::binary);
    std::string block(kStride, 'x');
    for (int i = 0; i < kReads; ++i) file << block;
  }
  int fd = open(path.c_str(), O_RDONLY | O_DIRECT);
  REQUIRE(fd >= 0);
  REQUIRE(fsync(fd) == 0);
  std::vector<uint64_t> sectors;
  std::string chosen;
  for (int i = 0; i < kReads; ++i) {
    uint64_t physical = physical_offset(fd, i * kStride);
    REQUIRE(physical != 0);
    sectors.push_back(disk.first_sector + physical / 512);
    chosen += (i ? " || " : "") + std::string("args[0]->b_blkno == ") + std::to_string(sectors.back());
  }
  std::string script =
      "io:::start /" + chosen + "/ { printf(\"start %d %d %s %s %d\\n\", args[0]->b_blkno, args[0]->b_bcount,"
      " args[0]->b_flags & B_READ ? \"R\" : \"W\", args[1]->dev_name, args[1]->dev_major); }"
      " io:::done /" + chosen + "/ { @done[args[1]->dev_name] = count(); }"
      " io:::wait-start /execname == \"dsched-io\"/ { @waits = count(); }"
      " io:::wait-done /execname == \"dsched-io\"/ { @resumes = count(); }"
      " sched:::off-cpu /execname == \"dsched-io\"/ { @outs = count(); }"
      " sched:::on-cpu /execname == \"dsched-io\"/ { @ins = count(); }"
      " END { printa(\"done %s %@d\\n\", @done); printa(\"waits %@d\\n\", @waits);"
      " printa(\"resumes %@d\\n\", @resumes); printa(\"outs %@d\\n\", @outs); printa(\"ins %@d\\n\", @ins); }";
  TracedWindow window({"-qn", script});
  REQUIRE(window.is_open());
  run_named_child("dsched-io", [&] {
    void* buffer = nullptr;
    child_must(posix_memalign(&buffer, kBytes, kBytes) == 0);
    for (int i = 0; i < kReads; ++i) child_must(pread(fd, buffer, kBytes, i * kStride) == ssize_t(kBytes));
    // Sleeps that are not I/O waits.
    for (int i = 0; i < kNaps; ++i) usleep(1000);
  });
  close(fd);
  unlink(path.c_str());
  RunResult run = window.close();
  INFO(run.out << run.err);
  REQUIRE(run.status == 0);
  struct stat st;
  REQUIRE(stat(DSCHED_SOURCE_DIR, &st) == 0);
  auto starts = start_rows_by_sector(run.out);
  REQUIRE(starts.size() == size_t(kReads));
  std::ranges::sort(sectors);
  for (int i = 0; i < kReads; ++i) {
    CHECK(starts[i] == std::vector<std::string>{std::to_string(sectors[i]), std::to_string(kBytes), "R", disk.name,
                                                std::to_string(major(st.st_dev))});
  }
  // A count's row: its keys, then the count.
  auto counted = [&](const char* tag) {
    auto rows = rows_tagged(run.out, tag);
    REQUIRE(rows.size() == 1);
    int count = std::stoi(rows[0].back());
    rows[0].pop_back();
    return std::pair{rows[0], count};
  };
  // Some virtual machines report no event raised while one of their own agent's threads is
  // current (perf misses those too): a completion interrupt over such a thread can be missing,
  // one at most in a run this short, and so can a switch from such a thread to the reader.
  constexpr int kHiddenCompletions = 1;
  auto [done_keys, done] = counted("done");
  CHECK(done_keys == std::vector<std::string>{disk.name});
  CHECK(done <= kReads);
  CHECK(done >= kReads - kHiddenCompletions);
  // Once named, the reader is switched in after each switch out but the last, at its exit; any
  // switch in short of that was hidden.
  int outs = counted("outs").second;
  int hidden_ins = outs - 1 - counted("ins").second;
  REQUIRE(hidden_ins >= 0);
  // Each read waits until its request completes, unless it completed before the thread got to
  // wait; the thread may also wait for other I/O (a page of its own text, file system metadata).
  // Each wait ends once, when the reader is switched back in, and the naps are no I/O waits.
  int waits = counted("waits").second;
  int resumes = counted("resumes").second;
  CHECK(waits >= 1);
  CHECK(resumes <= waits);
  CHECK(resumes >= waits - hidden_ins);
  CHECK(outs >= waits + kNaps);
  CHECK(leftover_programs().empty());
}

TEST_CASE("io:::start and io:::done: direct writes to a loop device the test makes") {
  char image[] = "/var/tmp/dsched-io-XXXXXX";
  int backing = mkstemp(image);
  REQUIRE(backing >= 0);
  REQUIRE(ftruncate(backing, kReads * kStride) == 0);
  close(backing);
  std::string device;
  if (FILE* losetup = popen(("losetup --find --show " + std::string(image) + " 2>/dev/null").c_str(), "r")) {
    char line[64] = {};
    if (fgets(line, sizeof line, losetup)) device = std::string(line).substr(0, std::string(line).find('\n'));
    pclose(losetup);
  }
  unlink(image);  // the loop device keeps it until it is detached
  REQUIRE(device.starts_with("/dev/loop"));
  std::string name = device.substr(5);
  std::string script =
      "io:::start /args[1]->dev_statname == \"" + name + "\"/ { printf(\"start %d %d %s %s %d\\n\","
      " args[0]->b_blkno, args[0]->b_bcount, args[0]->b_flags & B_WRITE ? \"W\" : \"R\", args[1]->dev_pathname,"
      " args[1]->dev_minor); }"
      " io:::done /args[1]->dev_statname == \"" + name + "\"/ { @done[args[0]->b_flags & B_WRITE ? \"W\" : \"R\"] = count(); }"
      " END { printa(\"done %s %@d\\n\", @done); }";
  TracedWindow window({"-qn", script});
  bool opened = window.is_open();
  if (opened) {
    run_named_child("dsched-io", [&] {
      int fd = open(device.c_str(), O_WRONLY | O_DIRECT);
      child_must(fd >= 0);
      void* buffer = nullptr;
      child_must(posix_memalign(&buffer, kBytes, kBytes) == 0);
      for (int i = 0; i < kReads; ++i) child_must(pwrite(fd, buffer, kBytes, i * kStride) == ssize_t(kBytes));
    });
  }
  RunResult run = window.close();
  std::string detach = "losetup --detach " + device;
  CHECK(system(detach.c_str()) == 0);
  REQUIRE(opened);
  INFO(run.out << run.err);
  REQUIRE(run.status == 0);
  struct stat st;
  REQUIRE(stat(device.c_str(), &st) == 0);
  std::vector<std::vector<std::string>> expected;
  for (int i = 0; i < kReads; ++i)
    expected.push_back({std::to_string(i * kStride / 512), std::to_string(kBytes), "W", device, std::to_string(minor(st.st_rdev))});
  CHECK(start_rows_by_sector(run.out) == expected);
  CHECK(rows_tagged(run.out, "done") == std::vector<std::vector<std::string>>{{"W", std::to_string(kReads)}});
  CHECK(leftover_programs().empty());
}

TEST_CASE("io: a cache flush, which has no partition, is for its whole disk") {
  // dd's fsync() writes the block and then flushes the disk's cache with a request of no bytes.
  RunResult run = trace_fsynced_write("io:::start /args[0]->b_bcount == 0/ { printf(\"flush %d %s\\n\","
                                      " args[1]->dev_name == args[1]->dev_statname, args[0]->b_flags & B_WRITE ? \"W\" : \"R\"); }",
                                      "4k", 1);
  INFO(run.out << run.err);
  CHECK(run.err.find("error on enabled probe") == std::string::npos);
  // A disk without a write cache needs no flush; where one is sent, it names the disk itself and
  // goes out as the writes it completes do.
  CHECK(run.out.find("flush 0") == std::string::npos);
  CHECK(run.out.find(" R\n") == std::string::npos);
  CHECK(leftover_programs().empty());
}

TEST_CASE("io: what the block layer cannot tell reads as DTrace for Linux gives it; wait-start has no arguments") {
  RunResult unknown = trace_fsynced_write("io:::start /args[0]->b_flags & B_WRITE/ { @[args[0]->b_resid, args[0]->b_error,"
                                          " args[0]->b_addr == NULL] = count(); } END { printa(\"unknown %d %d %d\\n\", @); }",
                                          "64k", 4);
  INFO(unknown.out << unknown.err);
  CHECK(rows_tagged(unknown.out, "unknown") == std::vector<std::vector<std::string>>{{"0", "0", "1"}});
  RunResult wait = run_dsched({"-e", "-n", "io:::wait-start { trace(args[0]->b_bcount); }"});
  CHECK(wait.status == 1);
  CHECK(wait.err.find("args[0]") != std::string::npos);
  RunResult file = run_dsched({"-qn", "io:::start { printf(\"%s %d\\n\", args[2]->fi_pathname, args[2]->fi_offset); exit(0); }",
                               "-c", "sync"});
  // sync may find nothing to write: the clause then never fires, which is fine.
  if (!file.out.empty()) CHECK(file.out.substr(0, file.out.find('\n')) == "<unknown> -1");
}
