#include "runtime/timeline/options.h"

#include <charconv>
#include <set>

namespace dsched::timeline {
namespace {

constexpr uint64_t kPageBytes = 4096;
constexpr uint64_t kMaxBufferBytes = 1ull << 30;

// A whole decimal number filling `text`, or nullopt.
std::optional<uint64_t> parse_number(std::string_view text) {
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

// "500ms", "10s", "2m"; a bare number is seconds.
std::optional<std::chrono::nanoseconds> parse_duration(const std::string& text) {
  static const std::pair<const char*, uint64_t> units[] = {
      {"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}, {"m", 60000000000}, {"h", 3600000000000}};
  size_t digits = text.find_first_not_of("0123456789");
  std::string unit = digits == std::string::npos ? "s" : text.substr(digits);
  auto number = parse_number(std::string_view(text).substr(0, digits));
  if (!number || *number == 0) return std::nullopt;
  for (auto [name, scale] : units)
    if (unit == name && *number <= UINT64_MAX / scale / 2) return std::chrono::nanoseconds(*number * scale);
  return std::nullopt;
}

// "8M", "512K", "1G" (binary multiples) or bytes.
std::optional<uint64_t> parse_size(const std::string& text) {
  if (text.empty()) return std::nullopt;
  uint64_t scale = 1;
  std::string_view digits = text;
  switch (text.back()) {
    case 'K': case 'k': scale = 1ull << 10; break;
    case 'M': case 'm': scale = 1ull << 20; break;
    case 'G': case 'g': scale = 1ull << 30; break;
    default: break;
  }
  if (scale != 1) digits.remove_suffix(1);
  auto number = parse_number(digits);
  if (!number || *number > kMaxBufferBytes / scale) return std::nullopt;
  return *number * scale;
}

// "0,2-3": ascending, without repeats.
std::optional<std::vector<int>> parse_cpu_list(const std::string& text, int possible_cpus, std::string& error) {
  std::set<int> cpus;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    size_t dash = item.find('-');
    auto first = parse_number(std::string_view(item).substr(0, dash));
    auto last = dash == std::string::npos ? first : parse_number(std::string_view(item).substr(dash + 1));
    if (!first || !last || *first > *last) {
      error = "invalid CPU list '" + text + "': expected CPU numbers and ranges such as 0,2-3";
      return std::nullopt;
    }
    if (*last >= static_cast<uint64_t>(possible_cpus)) {
      error = "invalid CPU list '" + text + "': this machine has CPUs 0-" + std::to_string(possible_cpus - 1);
      return std::nullopt;
    }
    for (uint64_t cpu = *first; cpu <= *last; ++cpu) cpus.insert(static_cast<int>(cpu));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return std::vector<int>(cpus.begin(), cpus.end());
}

bool parse_filter(const std::string& text, RecorderConfig& config, std::string& error) {
  if (text.rfind("comm=", 0) == 0) {
    std::string name = text.substr(5);
    if (name.empty() || name.size() >= DSTL_COMM_LEN) {
      error = "invalid filter '" + text + "': a thread name has 1 to 15 characters";
      return false;
    }
    config.filter = DSTL_FILTER_COMM;
    config.filter_comm = name;
    return true;
  }
  if (text.rfind("pid=", 0) == 0) {
    auto pid = parse_number(std::string_view(text).substr(4));
    if (!pid || *pid == 0 || *pid > INT32_MAX) {
      error = "invalid filter '" + text + "': expected pid=N with a process ID";
      return false;
    }
    config.filter = DSTL_FILTER_TGID;
    config.filter_tgid = static_cast<int>(*pid);
    return true;
  }
  error = "invalid filter '" + text + "': expected comm=NAME or pid=N";
  return false;
}

}  // namespace

ParsedOptions parse_options(const std::vector<std::string>& args, int possible_cpus) {
  TimelineOptions options;
  auto fail = [](std::string message) { return ParsedOptions{std::nullopt, std::move(message)}; };
  for (size_t i = 0; i < args.size(); ++i) {
    std::string flag = args[i];
    std::optional<std::string> value;
    if (size_t eq = flag.find('='); flag.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = flag.substr(eq + 1);
      flag = flag.substr(0, eq);
    }
    if (flag == "-h" || flag == "--help") {
      options.help = true;
      continue;
    }
    if (flag == "--") {
      options.script_args.insert(options.script_args.end(), args.begin() + i + 1, args.end());
      break;
    }
    if (flag.empty() || flag[0] != '-') {
      options.script_args.push_back(flag);
      continue;
    }
    if (flag == "-q" || flag == "-w") {
      options.script_words.push_back(flag);
      continue;
    }
    if (flag.size() > 2 && flag.rfind("-x", 0) == 0) {  // -xname=value, as the main command takes it
      value = flag.substr(2);
      flag = "-x";
    }
    static const std::set<std::string> with_value = {"-o",     "-d",       "-c",           "-p", "-s", "-n", "-x",
                                                     "--cpus", "--filter", "--buffer-size"};
    if (!with_value.count(flag)) return fail("invalid option '" + flag + "'");
    if (!value) {
      if (i + 1 == args.size()) return fail("option " + flag + " requires an argument");
      value = args[++i];
    }
    std::string error;
    if (flag == "-s" || flag == "-n" || flag == "-x") {
      options.script_words.insert(options.script_words.end(), {flag, *value});
      options.has_script |= flag != "-x";
    } else if (flag == "-o") {
      options.output = *value;
    } else if (flag == "-d") {
      options.duration = parse_duration(*value);
      if (!options.duration)
        return fail("invalid duration '" + *value + "': expected a positive number with a unit ns, us, ms, s, m or h");
    } else if (flag == "-c") {
      options.command = *value;
    } else if (flag == "-p") {
      auto pid = parse_number(*value);
      if (!pid || *pid == 0 || *pid > INT32_MAX) return fail("invalid process ID: " + *value);
      options.pid = static_cast<pid_t>(*pid);
    } else if (flag == "--cpus") {
      auto cpus = parse_cpu_list(*value, possible_cpus, error);
      if (!cpus) return fail(error);
      options.recorder.cpus = *cpus;
    } else if (flag == "--filter") {
      if (options.recorder.filter != DSTL_FILTER_NONE) return fail("only one --filter may be given");
      if (!parse_filter(*value, options.recorder, error)) return fail(error);
    } else if (flag == "--buffer-size") {
      auto bytes = parse_size(*value);
      if (!bytes || *bytes < kPageBytes || *bytes > kMaxBufferBytes || (*bytes & (*bytes - 1)))
        return fail("invalid buffer size '" + *value + "': a power of two from 4K to 1G, such as 8M");
      options.recorder.buffer_bytes = *bytes;
    }
  }
  if (options.help) return {options, ""};
  if (options.output.empty()) return fail("no output file: use -o FILE");
  if (!options.command.empty() && options.pid) return fail("only one of -c and -p may be given");
  if (!options.has_script) {
    if (!options.script_args.empty()) return fail("unexpected argument '" + options.script_args[0] + "'");
    if (!options.script_words.empty())
      return fail("option " + options.script_words[0] + " applies to a script: give one with -s or -n");
  }
  return {options, ""};
}

std::string usage_text() {
  return "Usage: dsched timeline -o FILE [-d DURATION] [-c CMD | -p PID] [--cpus LIST]\n"
         "                       [--filter comm=NAME|pid=N] [--buffer-size SIZE]\n"
         "                       [-q] [-w] [-x OPT[=VAL]] [-n DESCRIPTION]... [-s SCRIPT [ARGS ...]]\n"
         "\n"
         "Records the scheduler (switches, wakeups, migrations, new tasks, renames, exec) into a\n"
         "Perfetto trace for ui.perfetto.dev or trace_processor. Ctrl-C ends the recording.\n"
         "With a D script, the script runs too and prints as usual; in the trace, each firing\n"
         "that printed is an instant event on its thread's track, named by what it printed, and\n"
         "each printa() samples the aggregations it printed into counter tracks.\n"
         "\n"
         "\t-o FILE             write the trace to FILE\n"
         "\t-d DURATION         stop after DURATION (500ms, 10s, 2m; a bare number is seconds)\n"
         "\t-c CMD              run CMD and stop when it exits\n"
         "\t-p PID              stop when process PID exits\n"
         "\t--cpus LIST         only events on these CPUs (0,2-3); wakeups and migrations\n"
         "\t                    towards them too\n"
         "\t--filter comm=NAME  only threads named NAME (switches to and from them, their wakeups,\n"
         "\t                    migrations, renames); other threads on a CPU show as idle\n"
         "\t--filter pid=N      only the threads of process N, likewise\n"
         "\t--buffer-size SIZE  ring buffer shared by all CPUs, a power of two (default 8M);\n"
         "\t                    events lost when it is full are counted and reported\n"
         "\t-s SCRIPT           run the D program in SCRIPT; words that are not options are its\n"
         "\t                    arguments ($1, $2, ...; all words after --)\n"
         "\t-n DESCRIPTION      run the D clauses given (repeatable)\n"
         "\t-q, -w, -x OPT      quiet, destructive actions, a D option: as for dsched itself\n"
         "\t-h, --help          show this help\n";
}

}  // namespace dsched::timeline
