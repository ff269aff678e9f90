#include "runtime/cli.h"

#include <charconv>

namespace dsched {
namespace {

using Result = std::pair<std::optional<Invocation>, std::optional<CliError>>;

Result fail(std::string message) { return {std::nullopt, CliError{std::move(message)}}; }

// Short options that take an argument, as in dtrace(1).
bool takes_argument(char flag) {
  switch (flag) {
    case 's': case 'n': case 'P': case 'x': case 'c': case 'p': case 'o':
    case 'D': case 'U': case 'I':
      return true;
    default:
      return false;
  }
}

std::optional<CliError> apply_option(Invocation& inv, char flag, const std::string& value) {
  switch (flag) {
    case 's': inv.pieces.push_back({ProgramPiece::Kind::ScriptFile, value}); break;
    case 'n': inv.pieces.push_back({ProgramPiece::Kind::Description, value}); break;
    case 'P': inv.pieces.push_back({ProgramPiece::Kind::Provider, value}); break;
    case 'x': {
      auto eq = value.find('=');
      if (eq == 0 || value.empty()) return CliError{"invalid option -x " + value};
      std::string name = value.substr(0, eq);
      std::optional<std::string> given;
      if (eq != std::string::npos) given = value.substr(eq + 1);
      abi::OptionValue parsed;
      std::string error;
      if (!abi::parse_option(name, given, &parsed, &error)) return CliError{error};
      inv.options.set(name, parsed);
      break;
    }
    case 'c': inv.command = value; break;
    case 'p': {
      long pid = 0;
      auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), pid);
      if (ec != std::errc() || end != value.data() + value.size() || pid <= 0)
        return CliError{"invalid process ID: " + value};
      inv.pid = pid;
      break;
    }
    case 'o': inv.output_path = value; break;
    case 'D': inv.cpp_args.push_back("-D" + value); break;
    case 'U': inv.cpp_args.push_back("-U" + value); break;
    case 'I': inv.cpp_args.push_back("-I" + value); break;
    case 'q': inv.options.set("quiet", abi::OptionValue{abi::OptionKind::Flag, 1, ""}); break;
    case 'S': inv.dump = "llvm"; break;
    case 'e': inv.mode = Invocation::Mode::CompileOnly; break;
    case 'l': inv.mode = Invocation::Mode::List; break;
    case 'h': inv.mode = Invocation::Mode::Help; break;
    case 'v': inv.verbose = true; break;
    case 'w': inv.destructive = true; break;
    case 'Z': inv.allow_zero_matches = true; break;
    case 'C': inv.preprocess = true; break;
    default: return CliError{std::string("invalid option -- '") + flag + "'"};
  }
  return std::nullopt;
}

}  // namespace

Result parse_command_line(const std::vector<std::string>& args) {
  Invocation inv;
  if (!args.empty() && args[0] == "ctprof") {
    inv.mode = Invocation::Mode::Ctprof;
    inv.ctprof_args.assign(args.begin() + 1, args.end());
    return {inv, std::nullopt};
  }
  if (!args.empty() && args[0] == "timeline") {
    inv.mode = Invocation::Mode::Timeline;
    inv.timeline_args.assign(args.begin() + 1, args.end());
    return {inv, std::nullopt};
  }
  bool options_done = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (options_done || arg.size() < 2 || arg[0] != '-') {
      inv.script_args.push_back(arg);
      continue;
    }
    if (arg == "--") { options_done = true; continue; }
    if (arg == "--help") { inv.mode = Invocation::Mode::Help; continue; }
    if (arg == "--version") { inv.mode = Invocation::Mode::Version; continue; }
    if (arg == "--demo") { inv.mode = Invocation::Mode::Demo; continue; }
    if (arg == "--demo-workload") { inv.mode = Invocation::Mode::DemoWorkload; continue; }
    if (arg.starts_with("--dump=")) {
      inv.dump = arg.substr(7);
      if (*inv.dump != "ast" && *inv.dump != "types" && *inv.dump != "ir")
        return fail("invalid --dump stage '" + *inv.dump + "': use ast, types or ir");
      continue;
    }
    if (arg[1] == '-') return fail("invalid option '" + arg + "'");
    // A cluster of short flags, e.g. -qs file or -xquiet.
    for (size_t j = 1; j < arg.size(); ++j) {
      char flag = arg[j];
      std::string value;
      if (takes_argument(flag)) {
        if (j + 1 < arg.size()) {
          value = arg.substr(j + 1);
        } else if (i + 1 < args.size()) {
          value = args[++i];
        } else {
          return fail(std::string("option requires an argument -- '") + flag + "'");
        }
        j = arg.size();
      }
      if (auto err = apply_option(inv, flag, value)) return {std::nullopt, err};
    }
  }
  if (!inv.command.empty() && inv.pid != 0) return fail("only one of -c and -p may be given");
  bool needs_program = inv.mode == Invocation::Mode::Run || inv.mode == Invocation::Mode::CompileOnly;
  if (needs_program && inv.pieces.empty())
    return fail("no probes specified: use -s script, -n description or -P provider");
  return {inv, std::nullopt};
}

std::string usage_text() {
  return "Usage: dsched [-CelqSvwZ] [-c cmd] [-D name[=def]] [-I path] [-o output] [-p pid]\n"
         "              [-x opt[=val]] [-U name] [-n description] [-P provider] [-s script] [args ...]\n"
         "       dsched ctprof capture|compare|show|metric-list ...\n"
         "       dsched timeline -o file [-d duration] [-c cmd | -p pid] ...  (see dsched timeline --help)\n"
         "\n"
         "\t-c  run specified command and exit upon its completion\n"
         "\t-C  run cpp(1) preprocessor on script files\n"
         "\t-D  define symbol when invoking preprocessor\n"
         "\t-e  exit after compiling request but prior to enabling probes\n"
         "\t-h  show this help\n"
         "\t-I  add include directory to preprocessor search path\n"
         "\t-l  list probes matching specified criteria\n"
         "\t-n  enable or list probes matching the specified probe name\n"
         "\t-o  set output file\n"
         "\t-p  grab specified process-ID and cache its symbol tables\n"
         "\t-P  enable or list probes matching the specified provider name\n"
         "\t-q  set quiet mode (only output explicitly traced data)\n"
         "\t-s  enable or list probes for the specified D program\n"
         "\t-S  print the compiled program (LLVM IR, as optimised for BPF)\n"
         "\t-U  undefine symbol when invoking preprocessor\n"
         "\t-v  set verbose mode (report stability attributes, arguments)\n"
         "\t-w  permit destructive actions\n"
         "\t-x  enable or modify compiler and tracing options\n"
         "\t-Z  permit probe descriptions that match zero probes\n"
         "\t--dump=ast|types|ir  print a stage of the compile: the parse tree, the typed program,\n"
         "\t           or the LLVM IR as generated\n"
         "\t--version  print the version and exit\n"
         "\t--demo     run the built-in demonstration (a seed script on a short workload)\n";
}

}  // namespace dsched
