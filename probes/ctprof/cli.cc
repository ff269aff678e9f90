// The `dsched ctprof` subcommands and the entry points of the ctprof D functions.
#include <ostream>

#include "capture.h"
#include "ctprof.h"
#include "options.h"
#include "report.h"
#include "snapshot_io.h"

namespace dsched::ctprof {
namespace {

constexpr const char* kUsage =
    "usage: dsched ctprof capture -o FILE\n"
    "       dsched ctprof compare BASELINE CANDIDATE [--group-by all|pcomm|comm|comm-exact|cgroup]\n"
    "             [--sections primary,taskstats-delay,derived] [--metrics m1,m2,...]\n"
    "             [--sort-by metric[:asc|desc],...] [--display-format arrow|full] [--limit N]\n"
    "       dsched ctprof show FILE [--group-by ...] [--sections ...] [--metrics ...]\n"
    "             [--sort-by ...] [--limit N]\n"
    "       dsched ctprof metric-list\n"
    "capture also takes --proc-root DIR (default /proc) and --no-taskstats.\n";

int capture_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CaptureOptions options;
  std::string output;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const char* flag) {
      if (i + 1 >= args.size()) throw UsageError(std::string(flag) + " needs a value");
      return args[++i];
    };
    if (a == "-o" || a == "--output") output = value("--output");
    else if (a.starts_with("--output=")) output = a.substr(9);
    else if (a == "--proc-root") options.proc_root = value("--proc-root");
    else if (a == "--no-taskstats") options.taskstats = CaptureOptions::Taskstats::Off;
    else throw UsageError("capture: unexpected argument '" + a + "'");
  }
  if (output.empty()) throw UsageError("capture needs -o FILE");
  const Snapshot snap = capture(options, err);
  write_snapshot_file(snap, output);
  out << "ctprof: wrote " << snap.threads.size() << " threads to " << output << "\n";
  return 0;
}

int compare_command(const std::vector<std::string>& args, std::ostream& out) {
  std::vector<std::string> files;
  const ReportOptions o = parse_report_flags(args, files, true);
  if (files.size() != 2) throw UsageError("compare needs BASELINE and CANDIDATE files");
  const Snapshot base = read_snapshot_file(files[0]);
  const Snapshot cand = read_snapshot_file(files[1]);
  out << render_compare(base, cand, o);
  return 0;
}

int show_command(const std::vector<std::string>& args, std::ostream& out) {
  std::vector<std::string> files;
  const ReportOptions o = parse_report_flags(args, files, false);
  if (files.size() != 1) throw UsageError("show needs exactly one FILE");
  out << render_show(read_snapshot_file(files[0]), o);
  return 0;
}

}  // namespace

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty()) {
    err << kUsage;
    return 2;
  }
  const std::string& cmd = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  try {
    if (cmd == "-h" || cmd == "--help" || cmd == "help") {
      out << kUsage;
      return 0;
    }
    if (cmd == "capture") return capture_command(rest, out, err);
    if (cmd == "compare") return compare_command(rest, out);
    if (cmd == "show") return show_command(rest, out);
    if (cmd == "metric-list") {
      if (!rest.empty()) throw UsageError("metric-list takes no arguments");
      out << render_metric_list();
      return 0;
    }
    throw UsageError("unknown ctprof command '" + cmd +
                     "'; valid: capture, compare, show, metric-list");
  } catch (const UsageError& e) {
    err << "dsched ctprof: " << e.what() << "\n" << kUsage;
    return 2;
  } catch (const std::exception& e) {
    err << "dsched ctprof: " << e.what() << "\n";
    return 1;
  }
}

std::string write_snapshot(const std::string& path, std::ostream& diagnostics) {
  try {
    write_snapshot_file(capture(CaptureOptions{}, diagnostics), path);
    return {};
  } catch (const std::exception& e) {
    return e.what();
  }
}

std::string compare_files(const std::string& baseline, const std::string& candidate,
                          const std::string& flags, std::ostream& out) {
  try {
    std::vector<std::string> positional;
    const ReportOptions o = parse_report_flags(split_flags(flags), positional, true);
    if (!positional.empty())
      throw UsageError("unexpected '" + positional.front() + "' in ctprof_compare flags");
    out << render_compare(read_snapshot_file(baseline), read_snapshot_file(candidate), o);
    return {};
  } catch (const std::exception& e) {
    return e.what();
  }
}

}  // namespace dsched::ctprof
