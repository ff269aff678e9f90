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
  const auto unknown = [&](const std::string& flag) {
    return UsageError("capture: unknown flag " + flag + "; valid: " +
                      (allow_output ? "-o/--output, " : "") +
                      "--proc-root, --cgroup-root, --sys-root, --no-taskstats, --no-jemalloc, "
                      "--jemalloc-pid");
  };
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
    const auto eq = flag.find('=');
    const bool inline_value = flag.starts_with("--") && eq != std::string::npos;
    if (inline_value) {
      value = flag.substr(eq + 1);
      flag.resize(eq);
      if (flag == "--no-taskstats" || flag == "--no-jemalloc")
        throw UsageError(flag + " takes no value");
    }
    std::string* target = nullptr;
    if ((flag == "-o" || flag == "--output") && allow_output)
      target = &r.output;
    else if (flag == "--proc-root")
      target = &r.options.proc_root;
    else if (flag == "--cgroup-root")
      target = &r.options.cgroup_root;
    else if (flag == "--sys-root")
      target = &r.options.sys_root;
    else if (flag != "--jemalloc-pid")
      throw flag.starts_with("-") ? unknown(flag)
                                  : UsageError("capture: unexpected argument '" + flag + "'");
    if (!inline_value) {
      if (i + 1 >= args.size()) throw UsageError(flag + " needs a value");
      value = args[++i];
    }
    if (value.empty()) throw UsageError(flag + " needs a non-empty value");
    if (target)
      *target = value;
    else
      r.options.jemalloc_tgids.push_back(parse_pid(value));
  }
  if (allow_output && r.output.empty()) throw UsageError("capture needs -o FILE");
  return r;
}

}  // namespace dsched::ctprof
