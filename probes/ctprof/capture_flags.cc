#include "capture_flags.h"

#include <charconv>

#include "options.h"

namespace dsched::ctprof {
namespace {

int parse_pid(const std::string& value) {
  int pid = 0;
  auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), pid);
  if (ec != std::errc() || p != value.data() + value.size() || pid <= 0)
    throw UsageError("--jemalloc-pid needs a process id, got '" + value + "'");
  return pid;
}

}  // namespace

CaptureRequest parse_capture_flags(const std::vector<std::string>& args, bool allow_output) {
  CaptureRequest r;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string flag = args[i];
    if (flag == "--no-taskstats") {
      r.options.taskstats = CaptureOptions::Taskstats::Off;
      continue;
    }
    if (flag == "--no-jemalloc") {
      r.options.jemalloc = false;
      continue;
    }
    std::string value;
    if (auto eq = flag.find('='); flag.starts_with("--") && eq != std::string::npos) {
      value = flag.substr(eq + 1);
      flag.resize(eq);
      if (flag == "--no-taskstats" || flag == "--no-jemalloc")
        throw UsageError(flag + " takes no value");
    } else if (flag == "-o" || flag.starts_with("--")) {
      if (i + 1 >= args.size()) throw UsageError(flag + " needs a value");
      value = args[++i];
    } else {
      throw UsageError("capture: unexpected argument '" + flag + "'");
    }
    if (value.empty()) throw UsageError(flag + " needs a non-empty value");
    if ((flag == "-o" || flag == "--output") && allow_output)
      r.output = value;
    else if (flag == "--proc-root")
      r.options.proc_root = value;
    else if (flag == "--cgroup-root")
      r.options.cgroup_root = value;
    else if (flag == "--sys-root")
      r.options.sys_root = value;
    else if (flag == "--jemalloc-pid")
      r.options.jemalloc_tgids.push_back(parse_pid(value));
    else
      throw UsageError("capture: unknown flag " + flag +
                       "; valid: " + (allow_output ? "-o/--output, " : "") +
                       "--proc-root, --cgroup-root, --sys-root, --no-taskstats, --no-jemalloc, "
                       "--jemalloc-pid");
  }
  if (allow_output && r.output.empty()) throw UsageError("capture needs -o FILE");
  return r;
}

}  // namespace dsched::ctprof
