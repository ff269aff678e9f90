#include "host_source.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <charconv>
#include <chrono>

#include "file_read.h"

namespace dsched::ctprof {
namespace {

// The value of the first "key<spaces>:<spaces>value" line, or "" when there is none.
std::string field_value(const std::string& text, std::string_view key) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto nl = text.find('\n', pos);
    const std::string_view line(text.data() + pos,
                                (nl == std::string::npos ? text.size() : nl) - pos);
    pos = nl == std::string::npos ? text.size() : nl + 1;
    if (!line.starts_with(key)) continue;
    const auto colon = line.find(':');
    if (colon == std::string_view::npos || line.find_first_not_of(" \t", key.size()) != colon)
      continue;
    const auto start = line.find_first_not_of(" \t", colon + 1);
    return start == std::string_view::npos ? std::string() : std::string(line.substr(start));
  }
  return {};
}

// "seconds.hundredths idle" -> nanoseconds, without going through floating point.
std::uint64_t uptime_ns(std::string_view up) {
  const auto dot = up.find('.');
  std::uint64_t sec = 0, frac = 0;
  std::from_chars(up.data(), up.data() + (dot == std::string_view::npos ? up.size() : dot), sec);
  if (dot != std::string_view::npos) {
    auto f = up.substr(dot + 1, 2);
    std::from_chars(f.data(), f.data() + f.size(), frac);
    if (f.size() == 1) frac *= 10;
  }
  return sec * 1'000'000'000ULL + frac * 10'000'000ULL;
}

// Reads `name` below `dir`; counts it as "<source> <name>" when it cannot be read.
bool read_counted(int dir, const char* name, const char* source, SourceTally& tally,
                  std::string& buf) {
  if (read_at(dir, name, buf) == 0) return true;
  ++tally.failures[std::string(source) + " " + name];
  return false;
}

std::map<std::string, std::string> sched_tunables(int proc, SourceTally& tally, std::string& buf) {
  std::map<std::string, std::string> out;
  Fd kernel = open_dir(proc, "sys/kernel");
  DIR* d = kernel.ok() ? fdopendir(dup(kernel.get())) : nullptr;
  if (!d) {
    ++tally.failures["host sys/kernel"];
    return out;
  }
  while (dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (!name.starts_with("sched_")) continue;
    if (read_at(kernel.get(), name.c_str(), buf) == 0)
      out[name] = trimmed(buf);
    else
      ++tally.failures["host sys/kernel/" + name];
  }
  closedir(d);
  return out;
}

}  // namespace

HostInfo read_host(int proc, SourceTally& tally, std::string& buf) {
  HostInfo h;
  utsname u{};
  if (uname(&u) == 0) {
    h.hostname = u.nodename;
    h.kernel_release = u.release;
    h.kernel_name = u.sysname;
    h.arch = u.machine;
  }
  h.cpu_count = static_cast<std::uint32_t>(sysconf(_SC_NPROCESSORS_ONLN));
  h.clock_ticks_per_s = static_cast<std::uint32_t>(sysconf(_SC_CLK_TCK));
  h.captured_at_unix_ns =
      static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                     std::chrono::system_clock::now().time_since_epoch())
                                     .count());
  if (read_counted(proc, "uptime", "host", tally, buf)) h.uptime_ns = uptime_ns(buf);
  if (read_counted(proc, "stat", "host", tally, buf)) {
    auto pos = buf.find("\nbtime ");
    if (pos != std::string::npos)
      std::from_chars(buf.data() + pos + 7, buf.data() + buf.size(), h.boot_time_unix_s);
  }
  if (read_counted(proc, "sys/kernel/task_delayacct", "host", tally, buf)) {
    int v = 0;
    if (std::from_chars(buf.data(), buf.data() + buf.size(), v).ec == std::errc())
      h.task_delayacct = v;
  }
  if (read_counted(proc, "cpuinfo", "host", tally, buf)) {
    // x86 names the model "model name"; arm64 has no model line, only the implementer.
    if (auto model = field_value(buf, "model name"); !model.empty()) h.cpu_model = model;
    if (auto vendor = field_value(buf, "vendor_id"); !vendor.empty())
      h.cpu_vendor = vendor;
    else if (auto impl = field_value(buf, "CPU implementer"); !impl.empty())
      h.cpu_vendor = impl;
  }
  if (read_counted(proc, "meminfo", "host", tally, buf)) {
    std::uint64_t kb = 0;
    const std::string total = field_value(buf, "MemTotal");
    if (std::from_chars(total.data(), total.data() + total.size(), kb).ec == std::errc())
      h.total_memory_kb = kb;
  }
  if (read_counted(proc, "cmdline", "host", tally, buf)) h.kernel_cmdline = trimmed(buf);
  h.sched_tunables = sched_tunables(proc, tally, buf);
  return h;
}

std::optional<SchedExtState> read_sched_ext(const std::string& sys_root, SourceTally& tally,
                                            std::string& buf) {
  Fd dir(open((sys_root + "/kernel/sched_ext").c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!dir.ok()) return std::nullopt;
  SchedExtState s;
  if (read_counted(dir.get(), "state", "sched_ext", tally, buf)) s.state = trimmed(buf);
  const std::pair<const char*, std::optional<std::uint64_t>*> counters[] = {
      {"switch_all", &s.switch_all},
      {"nr_rejected", &s.nr_rejected},
      {"hotplug_seq", &s.hotplug_seq},
      {"enable_seq", &s.enable_seq}};
  for (const auto& [name, out] : counters) {
    if (!read_counted(dir.get(), name, "sched_ext", tally, buf)) continue;
    std::uint64_t v = 0;
    const std::string text = trimmed(buf);
    if (std::from_chars(text.data(), text.data() + text.size(), v).ec == std::errc())
      *out = v;
    else
      ++tally.failures[std::string("sched_ext ") + name];
  }
  return s;
}

}  // namespace dsched::ctprof
