// The `dsched ctprof` subcommands and the entry points of the ctprof D functions.
#include <algorithm>
#include <ostream>

#include "capture.h"
#include "capture_flags.h"
#include "ctprof.h"
#include "help.h"
#include "options.h"
#include "report.h"
#include "snapshot_io.h"

namespace dsched::ctprof {
namespace {

void print_warnings(const ReportOptions& o, std::ostream& to) {
  for (const auto& w : o.warnings) to << "ctprof: warning: " << w << "\n";
}

int capture_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const CaptureRequest r = parse_capture_flags(args, true);
  const Snapshot snap = capture(r.options, err);
  write_snapshot_file(snap, r.output);
  out << "ctprof: wrote " << snap.threads.size() << " threads to " << r.output << "\n";
  return 0;
}

int compare_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::vector<std::string> files;
  const ReportOptions o = parse_report_flags(args, files, ReportKind::Compare);
  if (files.size() != 2) throw UsageError("compare needs BASELINE and CANDIDATE files");
  print_warnings(o, err);
  const Snapshot base = read_snapshot_file(files[0]);
  const Snapshot cand = read_snapshot_file(files[1]);
  out << render_compare(base, cand, o, files[0], files[1]);
  return 0;
}

int show_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::vector<std::string> files;
  const ReportOptions o = parse_report_flags(args, files, ReportKind::Show);
  if (files.size() != 1) throw UsageError("show needs exactly one FILE");
  print_warnings(o, err);
  out << render_show(read_snapshot_file(files[0]), o);
  return 0;
}

bool wants_help(const std::vector<std::string>& args) {
  return std::any_of(args.begin(), args.end(),
                     [](const std::string& a) { return a == "-h" || a == "--help"; });
}

}  // namespace

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty()) {
    err << usage_text();
    return 2;
  }
  const std::string& cmd = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  try {
    if (cmd == "-h" || cmd == "--help" || cmd == "help") {
      const std::string_view topic = rest.empty() ? std::string_view() : help_text(rest[0]);
      if (!rest.empty() && topic.empty()) throw UsageError("no help for '" + rest[0] + "'");
      out << (topic.empty() ? usage_text() : topic);
      return 0;
    }
    if (!help_text(cmd).empty() && wants_help(rest)) {
      out << help_text(cmd);
      return 0;
    }
    if (cmd == "capture") return capture_command(rest, out, err);
    if (cmd == "compare") return compare_command(rest, out, err);
    if (cmd == "show") return show_command(rest, out, err);
    if (cmd == "metric-list") {
      if (!rest.empty()) throw UsageError("metric-list takes no arguments");
      out << render_metric_list();
      return 0;
    }
    throw UsageError("unknown ctprof command '" + cmd +
                     "'; valid: capture, compare, show, metric-list");
  } catch (const UsageError& e) {
    err << "dsched ctprof: " << e.what() << "\n" << usage_text();
    return 2;
  } catch (const std::exception& e) {
    err << "dsched ctprof: " << e.what() << "\n";
    return 1;
  }
}

namespace {

ReportOptions parse_compare_flags(const std::string& flags) {
  std::vector<std::string> positional;
  ReportOptions o = parse_report_flags(split_flags(flags), positional, ReportKind::Compare);
  if (!positional.empty())
    throw UsageError("unexpected '" + positional.front() + "' in ctprof_compare flags");
  return o;
}

// The message of what `run` throws, or "".
template <typename Run>
std::string error_of(Run run) {
  try {
    run();
    return {};
  } catch (const std::exception& e) {
    return e.what();
  }
}

}  // namespace

std::string write_snapshot(const std::string& path, std::ostream& diagnostics) {
  return write_snapshot(path, "", diagnostics);
}

std::string write_snapshot(const std::string& path, const std::string& flags,
                           std::ostream& diagnostics) {
  return error_of([&] {
    const CaptureRequest r = parse_capture_flags(split_flags(flags), false);
    write_snapshot_file(capture(r.options, diagnostics), path);
  });
}

std::string snapshot_flags_error(const std::string& flags) {
  return error_of([&] { parse_capture_flags(split_flags(flags), false); });
}

std::string compare_flags_error(const std::string& flags) {
  return error_of([&] { parse_compare_flags(flags); });
}

std::string compare_files(const std::string& baseline, const std::string& candidate,
                          const std::string& flags, std::ostream& out) {
  return error_of([&] {
    const ReportOptions o = parse_compare_flags(flags);
    print_warnings(o, out);
    out << render_compare(read_snapshot_file(baseline), read_snapshot_file(candidate), o, baseline,
                          candidate);
  });
}

}  // namespace dsched::ctprof
